import { Trans, useLingui } from '@lingui/react/macro';
import { type FormEvent, useId, useState } from 'react';
import { VERIFICATION_CODE_LENGTH, VERIFICATION_CODE_PATTERN } from '../../../common/schemas/values';
import type { VerifyCheckResponse } from '../../../common/schemas/verify';
import { errorMessage, successMessage } from '../../api';
import { Button } from '../../ui/Button';
import { TextField } from '../../ui/Field';
import styles from './CodeStep.module.css';
import { checkVerification, startVerification } from './verifyApi';

interface CodeStepProps {
  email: string;
  /** The shared link being answered, if any: the code is then for its institution's address. */
  hashLink?: string;
  /** Why the code is asked for, said under the heading. */
  purpose: string;
  onConfirmed: (response: VerifyCheckResponse) => void;
  /** How "Send a new code" asks for one, when not by the address alone (a waiting registration's). */
  requestCode?: () => Promise<{ message: string }>;
}

/**
 * Design section 8: "We sent a code to ...", the six digits, and a way to ask for another. The
 * caller has the first code sent (registering does it; a link survey asks right after submitting).
 */
export function CodeStep({ email, hashLink, purpose, onConfirmed, requestCode }: CodeStepProps) {
  const { t } = useLingui();
  const headingId = useId();
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function confirm(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    // Spaces or dashes typed between the digits are forgiven; the shared code rule decides the rest.
    const digits = code.replace(/\D/g, '');
    if (!VERIFICATION_CODE_PATTERN.test(digits)) {
      const length = VERIFICATION_CODE_LENGTH;
      setError(t`Enter the ${length} digits from the mail.`);
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const confirmation = await checkVerification(email, digits);
      onConfirmed({
        ...confirmation,
        message: successMessage(
          confirmation.message,
          confirmation.account_ready
            ? t`Your email address is confirmed and your account is ready. You can now log in.`
            : t`Your email address is confirmed. Thank you!`,
        ),
      });
    } catch (failure) {
      setError(errorMessage(failure, t`The code could not be checked. Please try again.`));
      setBusy(false);
    }
  }

  async function resend() {
    setError(null);
    setNote(null);
    try {
      const response = requestCode
        ? await requestCode()
        : await startVerification({ email, ...(hashLink ? { hash_link: hashLink } : {}) });
      setNote(
        successMessage(
          response.message,
          t`We sent a new code to ${email}. Check your inbox (and the spam folder).`,
        ),
      );
    } catch (failure) {
      setError(errorMessage(failure, t`A new code could not be sent. Please try again.`));
    }
  }

  return (
    <section className={styles.step} aria-labelledby={headingId}>
      <h2 id={headingId} className={styles.heading}>
        <Trans>We sent a code to {email}</Trans>
      </h2>
      <p className={styles.text}>{purpose}</p>
      <form className={styles.form} onSubmit={confirm} noValidate>
        <TextField
          className={styles.code}
          label={t`Code from the mail`}
          name="verification_code"
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={VERIFICATION_CODE_LENGTH + 2}
          value={code}
          onChange={(event) => setCode(event.currentTarget.value)}
          aria-invalid={error ? true : undefined}
        />
        <div className={styles.actions}>
          <Button type="submit" busy={busy}>
            <Trans>Confirm</Trans>
          </Button>
          <Button variant="secondary" onClick={() => void resend()}>
            <Trans>Send a new code</Trans>
          </Button>
        </div>
      </form>
      <p role="alert" className={styles.error}>
        {error}
      </p>
      <p role="status" className={styles.note}>
        {note}
      </p>
    </section>
  );
}
