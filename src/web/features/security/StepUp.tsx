import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { type FormEvent, type ReactNode, useCallback, useState } from 'react';
import { errorMessage, hasErrorCode } from '../../api';
import { Button } from '../../ui/Button';
import { TextField } from '../../ui/Field';
import { Modal } from '../../ui/Modal';
import { isBrowserRefusal, PASSKEY_NOT_USED, usePasskeysSupported } from '../second-factor/passkeys';
import { stepUpWithCode, stepUpWithPasskey } from './securityApi';

/** The refusal a change gets when the person closes the confirmation without confirming. */
export const STEP_UP_CANCELLED = msg`Nothing was changed: confirm it is you to make this change.`;

interface Pending {
  retry: () => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

/**
 * Changes to how an account signs in need a second factor proven in the last few minutes. Wrap
 * such a call in `confirmed(...)`: when the server answers STEP_UP_REQUIRED, a dialog asks for a
 * code (or a passkey), and the call is sent again once it is proven. Render `dialog` once.
 */
export function useStepUp(): { confirmed: <T>(call: () => Promise<T>) => Promise<T>; dialog: ReactNode } {
  const { i18n } = useLingui();
  const [pending, setPending] = useState<Pending | null>(null);
  const confirmed = useCallback(async <T,>(call: () => Promise<T>): Promise<T> => {
    try {
      return await call();
    } catch (error) {
      if (!hasErrorCode(error, 'STEP_UP_REQUIRED')) throw error;
      return new Promise<T>((resolve, reject) => {
        setPending({ retry: call, resolve: resolve as (value: unknown) => void, reject });
      });
    }
  }, []);
  const finish = (outcome: (current: Pending) => void) => {
    if (!pending) return;
    setPending(null);
    outcome(pending);
  };
  const dialog = (
    <StepUpDialog
      open={pending !== null}
      onProven={() =>
        finish((current) => {
          current.retry().then(current.resolve, current.reject);
        })
      }
      onCancel={() => finish((current) => current.reject(new Error(i18n._(STEP_UP_CANCELLED))))}
    />
  );
  return { confirmed, dialog };
}

function StepUpDialog({
  open,
  onProven,
  onCancel,
}: {
  open: boolean;
  onProven: () => void;
  onCancel: () => void;
}) {
  const { t } = useLingui();
  const [code, setCode] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const passkeys = usePasskeysSupported();

  const prove = async (proof: () => Promise<unknown>) => {
    setBusy(true);
    setProblem(null);
    try {
      await proof();
      setCode('');
      onProven();
    } catch (error) {
      setProblem(
        isBrowserRefusal(error)
          ? PASSKEY_NOT_USED
          : errorMessage(error, t`That could not be checked. Try again.`),
      );
    } finally {
      setBusy(false);
    }
  };

  function submit(event: FormEvent) {
    event.preventDefault();
    void prove(() => stepUpWithCode(code.trim()));
  }

  return (
    <Modal
      open={open}
      title={t`Confirm it is you`}
      onClose={onCancel}
      actions={
        <>
          <Button type="submit" form="step-up-form" busy={busy}>
            <Trans>Confirm</Trans>
          </Button>
          {passkeys && (
            <Button variant="secondary" disabled={busy} onClick={() => void prove(stepUpWithPasskey)}>
              <Trans>Use a passkey instead</Trans>
            </Button>
          )}
          <Button variant="secondary" onClick={onCancel}>
            <Trans>Cancel</Trans>
          </Button>
        </>
      }
    >
      <form id="step-up-form" onSubmit={submit} noValidate>
        <p>
          <Trans>Changing how your account signs in needs your second factor again.</Trans>
        </p>
        <TextField
          label={t`Code from your authenticator app, or a recovery code`}
          autoComplete="one-time-code"
          inputMode="text"
          value={code}
          onChange={(event) => setCode(event.target.value)}
          aria-invalid={problem ? true : undefined}
          aria-describedby={problem ? 'step-up-problem' : undefined}
        />
        {problem && (
          <p id="step-up-problem" role="alert">
            {problem}
          </p>
        )}
      </form>
    </Modal>
  );
}
