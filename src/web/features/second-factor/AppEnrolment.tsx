import { Trans, useLingui } from '@lingui/react/macro';
import { type FormEvent, type ReactNode, useEffect, useRef, useState } from 'react';
import type { TotpSetupResponse } from '../../../common/schemas/second-factor';
import { errorMessage } from '../../api';
import { Button } from '../../ui/Button';
import { TextField } from '../../ui/Field';
import styles from '../auth/Auth.module.css';
import { CheckingAuthentication } from '../auth/LoginScreen';
import own from './SecondFactor.module.css';
import { startAppSetup } from './secondFactorApi';

/** The secret in groups of four, easier to type into an app by hand. */
function grouped(secret: string): string {
  return secret.match(/.{1,4}/g)?.join(' ') ?? secret;
}

export function CodeError({ text }: { text: string | null }) {
  if (!text) return null;
  return (
    <p className={own.error} role="alert">
      {text}
    </p>
  );
}

/**
 * Setting up an authenticator app: a new secret as a QR code and a key, confirmed with the app's
 * first code. The sign-in's first step and the account page both use it, the account page also to
 * replace an app; `start` asks for the secret and `confirm` sends the code (the account page asks
 * for the second factor again around them).
 */
export function AppEnrolment<Answer>({
  start = startAppSetup,
  confirm,
  onDone,
  actions,
}: {
  start?: () => Promise<TotpSetupResponse>;
  confirm: (code: string) => Promise<Answer>;
  onDone: (answer: Answer) => void;
  /** More buttons beside Confirm (the account page's Cancel). */
  actions?: ReactNode;
}) {
  const { t } = useLingui();
  const [setup, setSetup] = useState<TotpSetupResponse | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    start()
      .then(setSetup)
      .catch((failure: unknown) =>
        setError(errorMessage(failure, t`The set-up could not start. Reload the page.`)),
      );
  }, [start, t]);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    setBusy(true);
    setError(null);
    try {
      onDone(await confirm(String(new FormData(event.currentTarget).get('code') ?? '')));
    } catch (failure) {
      setError(errorMessage(failure, t`That code could not be checked. Try again.`));
      setBusy(false);
    }
  }

  const secretKey = setup ? grouped(setup.secret) : null;

  return (
    <>
      <ol className={own.steps}>
        <li>
          <Trans>
            Open an authenticator app (for example Google Authenticator, Microsoft Authenticator or
            1Password).
          </Trans>
        </li>
        <li>
          <Trans>Scan the QR code, or enter the key by hand.</Trans>
        </li>
        <li>
          <Trans>Enter the 6-digit code the app shows.</Trans>
        </li>
      </ol>
      {setup ? (
        <>
          <img
            className={own.qr}
            src={setup.qr_code}
            alt={t`QR code to scan with your authenticator app`}
            width={192}
            height={192}
          />
          <p>
            <Trans>
              Key: <code className={own.secret}>{secretKey}</code>
            </Trans>
          </p>
        </>
      ) : (
        !error && <CheckingAuthentication />
      )}
      <form className={styles.form} onSubmit={submit}>
        <TextField
          label={t`6-digit code`}
          name="code"
          inputMode="numeric"
          autoComplete="one-time-code"
          pattern="[0-9]{6}"
          maxLength={6}
          required
          disabled={!setup}
        />
        <CodeError text={error} />
        <div className={styles.actions}>
          <Button type="submit" busy={busy} disabled={!setup}>
            <Trans>Confirm</Trans>
          </Button>
          {actions}
        </div>
      </form>
    </>
  );
}

/** Recovery codes, shown the one time they exist in the clear. */
export function RecoveryCodeList({ codes }: { codes: readonly string[] }) {
  const { t } = useLingui();
  return (
    <ol className={own.codes} aria-label={t`Recovery codes`}>
      {codes.map((code) => (
        <li key={code}>{code}</li>
      ))}
    </ol>
  );
}
