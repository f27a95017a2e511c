import { Trans, useLingui } from '@lingui/react/macro';
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import type { CurrentUser } from '../../../common/schemas/auth';
import { errorMessage } from '../../api';
import { pageTitle } from '../../config';
import { Button } from '../../ui/Button';
import { TextField } from '../../ui/Field';
import { Card, Lead, Page } from '../../ui/Page';
import { useDocumentTitle } from '../../ui/useDocumentTitle';
import { useLoginRedirect } from '../admin/AdminOnly';
import styles from '../auth/Auth.module.css';
import { CheckingAuthentication } from '../auth/LoginScreen';
import { destinationAfterLogin } from '../auth/redirects';
import { safeNextPath } from '../auth/safeNext';
import { CURRENT_USER_QUERY_KEY, useCurrentUser } from '../auth/useCurrentUser';
import { AppEnrolment, CodeError, RecoveryCodeList } from './AppEnrolment';
import {
  addPasskey,
  isBrowserRefusal,
  passkeyNotUsed,
  passkeysSupported,
  signInWithPasskey,
} from './passkeys';
import own from './SecondFactor.module.css';
import { confirmAppSetup, verifySecondFactor } from './secondFactorApi';

/**
 * Staff who signed in with a password complete the sign-in here (design section 11): the first
 * time by setting up an authenticator app (then saving recovery codes), later with its code.
 */
export function SecondFactorScreen() {
  const { t } = useLingui();
  useDocumentTitle(pageTitle(t`Confirm your sign-in`));
  const [searchParams] = useSearchParams();
  const next = safeNextPath(searchParams.get('next'));
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { data: user, isPending } = useCurrentUser();
  const [saved, setSaved] = useState<{ codes: string[]; user: CurrentUser } | null>(null);
  useLoginRedirect(user === null);

  function finish(signedIn: CurrentUser) {
    // Answers cached while the sign-in was incomplete were refusals: start afresh.
    queryClient.clear();
    queryClient.setQueryData(CURRENT_USER_QUERY_KEY, signedIn);
    navigate(destinationAfterLogin(signedIn, next), { replace: true });
  }

  // Nothing (more) to do here: on to where the sign-in was going.
  const complete = Boolean(user && !user.second_factor && !saved);
  // biome-ignore lint/correctness/useExhaustiveDependencies: leave once, when the answer says so.
  useEffect(() => {
    if (complete && user) navigate(destinationAfterLogin(user, next), { replace: true });
  }, [complete]);

  if (isPending || !user || complete) {
    return (
      <Page width="narrow">
        <CheckingAuthentication />
      </Page>
    );
  }
  return (
    <Page width="narrow">
      <Card>
        {saved ? (
          <RecoveryCodes codes={saved.codes} onContinue={() => finish(saved.user)} />
        ) : user.second_factor === 'enrol' ? (
          <AppSetup
            onDone={(codes, signedIn) => setSaved({ codes, user: signedIn })}
            // A first passkey brings recovery codes too: they are shown once, as after an app.
            onPasskey={(signedIn, codes) => (codes ? setSaved({ codes, user: signedIn }) : finish(signedIn))}
          />
        ) : (
          <CodePrompt onDone={finish} />
        )}
      </Card>
    </Page>
  );
}

/** A passkey's answer: the signed-in user, and recovery codes when it was the account's first factor. */
type PasskeyAnswer = { user: CurrentUser; recovery_codes?: string[] | undefined };

/** Runs a passkey ceremony; its failure is a message for the screen. */
async function withPasskey(ceremony: () => Promise<PasskeyAnswer>): Promise<PasskeyAnswer | string> {
  try {
    return await ceremony();
  } catch (failure) {
    const notUsed = passkeyNotUsed();
    return isBrowserRefusal(failure) ? notUsed : errorMessage(failure, notUsed);
  }
}

/** The other way to prove it is you: a passkey on this device, where the browser has them. */
function PasskeyOption({
  label,
  ceremony,
  onDone,
}: {
  label: string;
  ceremony: () => Promise<PasskeyAnswer>;
  onDone: (user: CurrentUser, recoveryCodes?: string[]) => void;
}) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  if (!passkeysSupported()) return null;

  async function run() {
    setBusy(true);
    setError(null);
    const outcome = await withPasskey(ceremony);
    if (typeof outcome === 'string') {
      setError(outcome);
      setBusy(false);
    } else onDone(outcome.user, outcome.recovery_codes);
  }

  return (
    <div className={styles.alternate}>
      <Button variant="secondary" busy={busy} onClick={run}>
        {label}
      </Button>
      <CodeError text={error} />
    </div>
  );
}

function AppSetup({
  onDone,
  onPasskey,
}: {
  onDone: (codes: string[], user: CurrentUser) => void;
  onPasskey: (user: CurrentUser, recoveryCodes?: string[]) => void;
}) {
  const { t } = useLingui();
  return (
    <>
      <h1>
        <Trans>Set up your authenticator app</Trans>
      </h1>
      <Lead>
        <Trans>Staff accounts sign in with a password and a code from an app on your phone.</Trans>
      </Lead>
      <AppEnrolment
        confirm={confirmAppSetup}
        onDone={(answer) => onDone(answer.recovery_codes, answer.user)}
      />
      <PasskeyOption label={t`Use a passkey instead`} ceremony={addPasskey} onDone={onPasskey} />
    </>
  );
}

function RecoveryCodes({ codes, onContinue }: { codes: string[]; onContinue: () => void }) {
  return (
    <>
      <h1>
        <Trans>Save your recovery codes</Trans>
      </h1>
      <Lead>
        <Trans>
          If you lose your phone, each of these codes signs you in once. Keep them somewhere safe: they are
          shown only now.
        </Trans>
      </Lead>
      <RecoveryCodeList codes={codes} />
      <div className={styles.actions}>
        <Button onClick={onContinue}>
          <Trans>I saved them, continue</Trans>
        </Button>
      </div>
    </>
  );
}

function CodePrompt({ onDone }: { onDone: (user: CurrentUser) => void }) {
  const { t } = useLingui();
  const [recovery, setRecovery] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function verify(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    setBusy(true);
    setError(null);
    try {
      const answer = await verifySecondFactor(String(new FormData(event.currentTarget).get('code') ?? ''));
      onDone(answer.user);
    } catch (failure) {
      setError(errorMessage(failure, t`That code could not be checked. Try again.`));
      setBusy(false);
    }
  }

  return (
    <>
      <h1>
        <Trans>Confirm it&apos;s you</Trans>
      </h1>
      <Lead>
        {recovery
          ? t`Enter one of the recovery codes you saved. Each works once.`
          : t`Enter the 6-digit code from your authenticator app.`}
      </Lead>
      <form className={styles.form} onSubmit={verify} key={recovery ? 'recovery' : 'app'}>
        {recovery ? (
          <TextField
            label={t`Recovery code`}
            name="code"
            autoComplete="off"
            spellCheck={false}
            maxLength={40}
            required
          />
        ) : (
          <TextField
            label={t`6-digit code`}
            name="code"
            inputMode="numeric"
            autoComplete="one-time-code"
            pattern="[0-9]{6}"
            maxLength={6}
            required
          />
        )}
        <CodeError text={error} />
        <div className={styles.actions}>
          <Button type="submit" busy={busy}>
            <Trans>Verify</Trans>
          </Button>
        </div>
      </form>
      <p className={own.switch}>
        <Button variant="ghost" onClick={() => setRecovery(!recovery)}>
          {recovery ? t`Use the code from the app instead` : t`Use a recovery code instead`}
        </Button>
      </p>
      <PasskeyOption label={t`Use a passkey`} ceremony={signInWithPasskey} onDone={onDone} />
      <p className={styles.alternate}>
        <Trans>
          Lost your phone and your recovery codes? Ask another administrator of your institution to reset your
          second factor.
        </Trans>
      </p>
    </>
  );
}
