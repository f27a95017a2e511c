import { Trans } from '@lingui/react/macro';
import { type ReactNode, useEffect } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { type Ability, accessRequiredMessage, can } from '../../../common/roles';
import { pageTitle } from '../../config';
import { Page } from '../../ui/Page';
import { useDocumentTitle } from '../../ui/useDocumentTitle';
import { loginPathFor, secondFactorPathFor } from '../auth/loginPath';
import { useCurrentUser } from '../auth/useCurrentUser';
import styles from './AdminOnly.module.css';

/**
 * Sends someone who is not signed in to the login page (spec section 4), once `signedOut`
 * turns true: on the first answer, or when an admin call says the session has ended. The login
 * page brings them back here afterwards.
 */
export function useLoginRedirect(signedOut: boolean) {
  const navigate = useNavigate();
  const { pathname, search } = useLocation();
  // biome-ignore lint/correctness/useExhaustiveDependencies: redirect once when the answer says "signed out".
  useEffect(() => {
    if (signedOut) navigate(loginPathFor(`${pathname}${search}`), { replace: true });
  }, [signedOut]);
}

/** Sends staff whose sign-in still needs a second factor to that step; it brings them back here. */
function useSecondFactorRedirect(needed: boolean) {
  const navigate = useNavigate();
  const { pathname, search } = useLocation();
  // biome-ignore lint/correctness/useExhaustiveDependencies: redirect once when the answer says so.
  useEffect(() => {
    if (needed) navigate(secondFactorPathFor(`${pathname}${search}`), { replace: true });
  }, [needed]);
}

/** The line an administrator screen shows while its data is on the way. */
export function LoadingStatus({ children }: { children: ReactNode }) {
  return (
    <p className={styles.loading} role="status">
      {children}
    </p>
  );
}

/** The refusal shown to a signed-in user whose role may not open the screen. */
export function AccessRequired({ title, ability }: { title: string; ability: Ability }) {
  // The server words the same refusal (common/roles.ts); only its choice is taken from there.
  const adminsOnly = accessRequiredMessage(ability) === 'Admin access required';
  return (
    <Page width="narrow">
      <div className={styles.refusal} role="alert">
        <h1>{title}</h1>
        {adminsOnly ? (
          <>
            <p className={styles.refusalText}>
              <Trans>Admin access required</Trans>
            </p>
            <p>
              <Trans>
                This page is for your institution&apos;s administrators. If you need access, please contact
                your administrator.
              </Trans>
            </p>
          </>
        ) : (
          <>
            <p className={styles.refusalText}>
              <Trans>Staff access required</Trans>
            </p>
            <p>
              <Trans>
                This page is for your institution&apos;s staff. If you need access, please contact your
                administrator.
              </Trans>
            </p>
          </>
        )}
      </div>
    </Page>
  );
}

interface AdminOnlyProps {
  /** What opening the screen takes (common/roles.ts). */
  ability: Ability;
  /** The screen's heading and browser tab title, also shown above the refusal. */
  title: string;
  /** What the screen says while the signed-in user is being looked up. */
  loadingText: string;
  children: ReactNode;
}

/**
 * Staff screens: anonymous visitors go to /login/, users whose role may not open the screen read
 * "Admin access required" (or "Staff access required" where counsellors or viewers may). This is
 * only the friendly front: the server refuses every call on its own.
 */
export function AdminOnly({ ability, title, loadingText, children }: AdminOnlyProps) {
  useDocumentTitle(pageTitle(title));
  const { data: user, isPending } = useCurrentUser();
  const signedOut = user === null;
  useLoginRedirect(signedOut);
  const needsSecondFactor = Boolean(user?.second_factor);
  useSecondFactorRedirect(needsSecondFactor);

  if (isPending || signedOut || needsSecondFactor) {
    return (
      <Page>
        <LoadingStatus>{loadingText}</LoadingStatus>
      </Page>
    );
  }
  // When the user lookup failed (logged only), the screen still loads and the server decides.
  if (user && !can(user.role, ability)) return <AccessRequired title={title} ability={ability} />;
  return children;
}
