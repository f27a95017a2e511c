import type { MessageDescriptor } from '@lingui/core';
import { Trans, useLingui } from '@lingui/react/macro';
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router';
import type { CurrentUser } from '../../../common/schemas/auth';
import type { SsoError } from '../../../common/schemas/sso';
import { EMAIL_MAX_LENGTH, SSO_ERRORS } from '../../../common/schemas/values';
import { errorMessage, hasErrorCode, successMessage } from '../../api';
import { pageTitle } from '../../config';
import { Button, buttonClassName } from '../../ui/Button';
import { TextField } from '../../ui/Field';
import { MessageModal, type ModalMessage } from '../../ui/Modal';
import { Card, Lead, Page } from '../../ui/Page';
import { Spinner } from '../../ui/Spinner';
import { useDocumentTitle } from '../../ui/useDocumentTitle';
import { resendRegistrationCode } from '../password-reset/passwordResetApi';
import {
  isBrowserRefusal,
  passkeyNotUsed,
  signInWithPasskey,
  usePasskeysSupported,
} from '../second-factor/passkeys';
import { CodeStep } from '../verify/CodeStep';
import styles from './Auth.module.css';
import { login } from './authApi';
import { AUTH_REDIRECT_DELAY_MS, destinationAfterLogin } from './redirects';
import { safeNextPath } from './safeNext';
import { SSO_ERROR_TEXTS } from './ssoErrors';
import { CURRENT_USER_QUERY_KEY, useCurrentUser } from './useCurrentUser';
import { type SsoOffer, useSsoDiscovery } from './useSsoDiscovery';

/** Why the last sign-in through the institution failed, from the address it sent the browser back to. */
function ssoErrorOf(raw: string | null): MessageDescriptor | null {
  if (raw === null) return null;
  const reason = (SSO_ERRORS as readonly string[]).includes(raw) ? (raw as SsoError) : 'failed';
  return SSO_ERROR_TEXTS[reason];
}

/** Where the institution's sign-in starts, carrying the page the visitor was going to. */
function ssoStartUrl(offer: SsoOffer, next: string | null): string {
  return next ? `${offer.start_url}&next=${encodeURIComponent(next)}` : offer.start_url;
}

export function CheckingAuthentication() {
  return (
    <div className={styles.checking} role="status">
      <Spinner />
      <Trans>Checking authentication...</Trans>
    </div>
  );
}

/** "Back": to the previous screen of this visit, or home when the login page was opened directly. */
function useGoBack() {
  const navigate = useNavigate();
  const location = useLocation();
  return () => (location.key === 'default' ? navigate('/') : navigate(-1));
}

export function LoginScreen() {
  const { t, i18n } = useLingui();
  useDocumentTitle(pageTitle(t`Login`));
  const [searchParams] = useSearchParams();
  const next = safeNextPath(searchParams.get('next'));
  const ssoError = ssoErrorOf(searchParams.get('sso_error'));
  const [email, setEmail] = useState('');
  const sso = useSsoDiscovery(email);
  const navigate = useNavigate();
  const goBack = useGoBack();
  const queryClient = useQueryClient();
  const currentUser = useCurrentUser();
  const passkeys = usePasskeysSupported();
  const [message, setMessage] = useState<ModalMessage | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const loggedInHere = useRef(false);
  // A ref, not the state: a quick double submit arrives before React re-renders.
  const inFlight = useRef(false);
  const redirectTimer = useRef<number | undefined>(undefined);
  // The right password of a registration whose address waits for its code: what it was, to ask for one.
  const [unconfirmed, setUnconfirmed] = useState<{ email: string; password: string } | null>(null);
  const [codeSentTo, setCodeSentTo] = useState<string | null>(null);

  useEffect(() => () => window.clearTimeout(redirectTimer.current), []);

  // Someone already signed in who opens the login page: send them on, or refuse a superuser.
  const alreadySignedIn = currentUser.data;
  useEffect(() => {
    if (!alreadySignedIn || loggedInHere.current) return;
    if (alreadySignedIn.is_superuser)
      setMessage({ title: t`Access denied`, text: t`Super users cannot access this page`, tone: 'error' });
    else navigate(destinationAfterLogin(alreadySignedIn, next), { replace: true });
  }, [alreadySignedIn, navigate, next, t]);

  /** Runs one way of signing in; on success, the message and then the redirect. */
  async function attempt(
    signInWith: () => Promise<{ user: CurrentUser; message: string }>,
    fallback: string,
  ) {
    if (inFlight.current) return;
    inFlight.current = true;
    setSubmitting(true);
    try {
      const { user, message: serverMessage } = await signInWith();
      loggedInHere.current = true;
      setMessage({
        title: t`Signed in`,
        text: successMessage(serverMessage, t`You are signed in.`),
        tone: 'success',
      });
      redirectTimer.current = window.setTimeout(() => {
        // Nothing cached for the visitor before login may leak into the signed-in screens.
        queryClient.clear();
        queryClient.setQueryData(CURRENT_USER_QUERY_KEY, user);
        navigate(destinationAfterLogin(user, next), { replace: true });
      }, AUTH_REDIRECT_DELAY_MS);
    } catch (error) {
      if (!hasErrorCode(error, 'ADDRESS_UNCONFIRMED')) setUnconfirmed(null);
      const text = isBrowserRefusal(error)
        ? passkeyNotUsed()
        : errorMessage(error, signInFailureText(error, fallback));
      setMessage({ title: t`Sign in failed`, text, tone: 'error' });
      inFlight.current = false;
      setSubmitting(false);
    }
  }

  /** The screen's words for a refused sign-in, where the refusal says more than that it failed. */
  function signInFailureText(error: unknown, fallback: string): string {
    if (hasErrorCode(error, 'UNAUTHENTICATED')) return t`Invalid email or password`;
    if (hasErrorCode(error, 'ADDRESS_UNCONFIRMED'))
      return t`Your email address is not confirmed yet. Send a new code to your address and enter it to finish registering.`;
    return fallback;
  }

  function signIn(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const credentials = {
      email: String(form.get('email') ?? ''),
      password: String(form.get('password') ?? ''),
    };
    return attempt(
      () =>
        login(credentials).catch((error: unknown) => {
          if (hasErrorCode(error, 'ADDRESS_UNCONFIRMED')) setUnconfirmed(credentials);
          throw error;
        }),
      t`Login failed`,
    );
  }

  async function sendNewCode() {
    if (!unconfirmed) return;
    try {
      await resendRegistrationCode(unconfirmed);
      setCodeSentTo(unconfirmed.email);
    } catch (error) {
      setMessage({
        title: t`No code sent`,
        text: errorMessage(error, t`A new code could not be sent`),
        tone: 'error',
      });
    }
  }

  const institutionName = sso?.institution_name;

  if (currentUser.isPending) {
    return (
      <Page width="narrow">
        <CheckingAuthentication />
      </Page>
    );
  }

  return (
    <Page width="narrow">
      <Card>
        <h1>
          <Trans>Login</Trans>
        </h1>
        <Lead>{next ? t`Please sign in to continue.` : t`Sign in with your institution account.`}</Lead>
        {ssoError && (
          <p className={styles.ssoError} role="alert">
            {i18n._(ssoError)}
          </p>
        )}
        {codeSentTo && unconfirmed && (
          <CodeStep
            email={codeSentTo}
            purpose={t`Enter it here to confirm your address, then sign in.`}
            requestCode={() => resendRegistrationCode(unconfirmed)}
            onConfirmed={(confirmation) => {
              setCodeSentTo(null);
              setUnconfirmed(null);
              setMessage({ title: t`Address confirmed`, text: confirmation.message, tone: 'success' });
            }}
          />
        )}
        {unconfirmed && !codeSentTo && (
          <p className={styles.alternate}>
            <Button variant="secondary" onClick={() => void sendNewCode()}>
              <Trans>Send a new code</Trans>
            </Button>
          </p>
        )}
        <form className={styles.form} onSubmit={signIn}>
          <TextField
            label={t`Email`}
            name="email"
            type="email"
            autoComplete="username"
            required
            maxLength={EMAIL_MAX_LENGTH}
            value={email}
            onChange={(event) => setEmail(event.target.value)}
          />
          {sso && (
            <p className={styles.sso}>
              <a
                className={buttonClassName({ variant: 'primary', fullWidth: true })}
                href={ssoStartUrl(sso, next)}
              >
                <Trans>Sign in with {institutionName}</Trans>
              </a>
              <span className={styles.ssoOr}>
                <Trans>or with your password:</Trans>
              </span>
            </p>
          )}
          <TextField
            label={t`Password`}
            name="password"
            type="password"
            autoComplete="current-password"
            required
          />
          <div className={styles.actions}>
            <Button type="submit" busy={submitting}>
              <Trans>Sign In</Trans>
            </Button>
            <Button variant="secondary" onClick={goBack}>
              <Trans>Back</Trans>
            </Button>
          </div>
        </form>
        {passkeys && (
          <p className={styles.alternate}>
            <Button variant="secondary" onClick={() => attempt(signInWithPasskey, passkeyNotUsed())}>
              <Trans>Use a passkey</Trans>
            </Button>
          </p>
        )}
        <p className={styles.alternate}>
          <Link to="/forgot-password/">
            <Trans>Forgot password?</Trans>
          </Link>
        </p>
        <p className={styles.alternate}>
          <Link to="/register/">
            <Trans>No Account? Register Now!</Trans>
          </Link>
        </p>
      </Card>
      <MessageModal message={message} onClose={() => setMessage(null)} />
    </Page>
  );
}
