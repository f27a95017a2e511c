import { Trans, useLingui } from '@lingui/react/macro';
import { type FormEvent, useState } from 'react';
import { Link } from 'react-router';
import { EMAIL_MAX_LENGTH } from '../../../common/schemas/values';
import { errorMessage, successMessage } from '../../api';
import { pageTitle } from '../../config';
import { Button } from '../../ui/Button';
import { TextField } from '../../ui/Field';
import { Card, Lead, Page } from '../../ui/Page';
import { useDocumentTitle } from '../../ui/useDocumentTitle';
import styles from '../auth/Auth.module.css';
import { requestPasswordReset } from './passwordResetApi';

/** "Forgot password?": asks for the address and says what every address is told. */
export function ForgotPasswordScreen() {
  const { t } = useLingui();
  const title = t`Forgot password`;
  useDocumentTitle(pageTitle(title));
  const [submitting, setSubmitting] = useState(false);
  const [answer, setAnswer] = useState<{ text: string; tone: 'success' | 'error' } | null>(null);

  async function send(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (submitting) return;
    const form = new FormData(event.currentTarget);
    setSubmitting(true);
    try {
      const { message } = await requestPasswordReset(String(form.get('email') ?? ''));
      setAnswer({
        text: successMessage(
          message,
          t`If this address has an account, we sent it a link to choose a new password. Check your inbox (and the spam folder).`,
        ),
        tone: 'success',
      });
    } catch (error) {
      setAnswer({ text: errorMessage(error, t`Sending the link failed`), tone: 'error' });
    } finally {
      setSubmitting(false);
    }
  }

  return (
    <Page width="narrow">
      <Card>
        <h1>{title}</h1>
        <Lead>
          <Trans>Enter your email address and we will mail you a link to choose a new password.</Trans>
        </Lead>
        <form className={styles.form} onSubmit={send}>
          <TextField
            label={t`Email`}
            name="email"
            type="email"
            autoComplete="username"
            required
            maxLength={EMAIL_MAX_LENGTH}
          />
          <div className={styles.actions}>
            <Button type="submit" busy={submitting}>
              <Trans>Send the link</Trans>
            </Button>
          </div>
        </form>
        {answer && (
          <p role={answer.tone === 'error' ? 'alert' : 'status'} className={styles.alternate}>
            {answer.text}
          </p>
        )}
        <p className={styles.alternate}>
          <Link to="/login/">
            <Trans>Back to the login page</Trans>
          </Link>
        </p>
      </Card>
    </Page>
  );
}
