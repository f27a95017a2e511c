import { type FormEvent, useState } from 'react';
import { Link, useParams } from 'react-router';
import { errorMessage } from '../../api';
import { pageTitle } from '../../config';
import { Button } from '../../ui/Button';
import { NewPasswordFields } from '../../ui/NewPasswordFields';
import { Card, Lead, Page } from '../../ui/Page';
import { useDocumentTitle } from '../../ui/useDocumentTitle';
import styles from '../auth/Auth.module.css';
import { chooseNewPassword } from './passwordResetApi';

const TITLE = 'Choose a new password';

/** Where a reset mail leads: a new password (the registration rules), then the login page. */
export function ResetPasswordScreen() {
  useDocumentTitle(pageTitle(TITLE));
  const { token = '' } = useParams();
  const [submitting, setSubmitting] = useState(false);
  const [done, setDone] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);

  async function choose(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (submitting) return;
    const form = new FormData(event.currentTarget);
    setSubmitting(true);
    setProblem(null);
    try {
      const { message } = await chooseNewPassword(
        token,
        String(form.get('password') ?? ''),
        String(form.get('confirm_password') ?? ''),
      );
      setDone(message);
    } catch (error) {
      setProblem(errorMessage(error, 'Changing the password failed'));
    } finally {
      setSubmitting(false);
    }
  }

  if (done)
    return (
      <Page width="narrow">
        <Card>
          <h1>{TITLE}</h1>
          <p role="status">{done}</p>
          <p className={styles.alternate}>
            <Link to="/login/">Go to the login page</Link>
          </p>
        </Card>
      </Page>
    );

  return (
    <Page width="narrow">
      <Card>
        <h1>{TITLE}</h1>
        <Lead>Every session of your account ends once it is changed.</Lead>
        <form className={styles.form} onSubmit={choose}>
          <NewPasswordFields label="New password" />
          <div className={styles.actions}>
            <Button type="submit" busy={submitting}>
              Set the new password
            </Button>
          </div>
        </form>
        {problem && (
          <p role="alert" className={styles.alternate}>
            {problem}
          </p>
        )}
        <p className={styles.alternate}>
          <Link to="/forgot-password/">Ask for a new link</Link>
        </p>
      </Card>
    </Page>
  );
}
