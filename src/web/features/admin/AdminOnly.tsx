import { type ReactNode, useEffect } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { pageTitle } from '../../config';
import { Page } from '../../ui/Page';
import { useDocumentTitle } from '../../ui/useDocumentTitle';
import { loginPathFor } from '../auth/loginPath';
import { useCurrentUser } from '../auth/useCurrentUser';
import styles from './AdminOnly.module.css';

export const ADMIN_ACCESS_REQUIRED = 'Admin access required';

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

/** The line an administrator screen shows while its data is on the way. */
export function LoadingStatus({ children }: { children: ReactNode }) {
  return (
    <p className={styles.loading} role="status">
      {children}
    </p>
  );
}

/** The refusal shown to a signed-in user who is not an institution administrator. */
export function AdminAccessRequired({ title }: { title: string }) {
  return (
    <Page width="narrow">
      <div className={styles.refusal} role="alert">
        <h1>{title}</h1>
        <p className={styles.refusalText}>{ADMIN_ACCESS_REQUIRED}</p>
        <p>
          This page is for your institution&apos;s administrators. If you need access, please contact them.
        </p>
      </div>
    </Page>
  );
}

interface AdminOnlyProps {
  /** The screen's heading and browser tab title, also shown above the refusal. */
  title: string;
  /** What the screen says while the signed-in user is being looked up. */
  loadingText: string;
  children: ReactNode;
}

/**
 * Screens for institution administrators: anonymous visitors go to /login/, other users read
 * "Admin access required". This is only the friendly front: the server refuses every admin
 * call on its own.
 */
export function AdminOnly({ title, loadingText, children }: AdminOnlyProps) {
  useDocumentTitle(pageTitle(title));
  const { data: user, isPending } = useCurrentUser();
  const signedOut = user === null;
  useLoginRedirect(signedOut);

  if (isPending || signedOut) {
    return (
      <Page>
        <LoadingStatus>{loadingText}</LoadingStatus>
      </Page>
    );
  }
  // When the user lookup failed (logged only), the screen still loads and the server decides.
  if (user && !user.is_institution_admin) return <AdminAccessRequired title={title} />;
  return children;
}
