import { type FormEvent, useState } from 'react';
import { Link } from 'react-router';
import { EMAIL_MAX_LENGTH } from '../../../common/schemas/values';
import { errorMessage } from '../../api';
import { pageTitle } from '../../config';
import { Button } from '../../ui/Button';
import { TextField } from '../../ui/Field';
import { Card, Lead, Page } from '../../ui/Page';
import { useDocumentTitle } from '../../ui/useDocumentTitle';
import styles from '../auth/Auth.module.css';
import { requestPasswordReset } from './passwordResetApi';

const TITLE = 'Forgot password';

/** "Forgot password?": asks for the address and says what every address is told. */
export function ForgotPasswordScreen() {
  useDocumentTitle(pageTitle(TITLE));
  const [submitting, setSubmitting] = useState(false);
  const [answer, setAnswer] = useState<{ text: string; tone: 'success' | 'error' } | null>(null);

  async function send(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (submitting) return;
    const form = new FormData(event.currentTarget);
    setSubmitting(true);
    try {
      const { message } = await requestPasswordReset(String(form.get('email') ?? ''));
      setAnswer({ text: message, tone: 'success' });
    } catch (error) {
      setAnswer({ text: errorMessage(error, 'Sending the link failed'), tone: 'error' });
    } finally {
      setSubmitting(false);
    }
  }

  return (
    <Page width="narrow">
      <Card>
        <h1>{TITLE}</h1>
        <Lead>Enter your email address and we will mail you a link to choose a new password.</Lead>
        <form className={styles.form} onSubmit={send}>
          <TextField
            label="Email"
            name="email"
            type="email"
            autoComplete="username"
            required
            maxLength={EMAIL_MAX_LENGTH}
          />
          <div className={styles.actions}>
            <Button type="submit" busy={submitting}>
              Send the link
            </Button>
          </div>
        </form>
        {answer && (
          <p role={answer.tone === 'error' ? 'alert' : 'status'} className={styles.alternate}>
            {answer.text}
          </p>
        )}
        <p className={styles.alternate}>
          <Link to="/login/">Back to the login page</Link>
        </p>
      </Card>
    </Page>
  );
}
