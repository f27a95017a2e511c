import { Trans, useLingui } from '@lingui/react/macro';
import { type FormEvent, useState } from 'react';
import { Link, useParams } from 'react-router';
import { errorMessage, successMessage } from '../../api';
import { pageTitle } from '../../config';
import { Button } from '../../ui/Button';
import { NewPasswordFields } from '../../ui/NewPasswordFields';
import { Card, Lead, Page } from '../../ui/Page';
import { useDocumentTitle } from '../../ui/useDocumentTitle';
import styles from '../auth/Auth.module.css';
import { chooseNewPassword } from './passwordResetApi';

/** Where a reset mail leads: a new password (the registration rules), then the login page. */
export function ResetPasswordScreen() {
  const { t } = useLingui();
  const title = t`Choose a new password`;
  useDocumentTitle(pageTitle(title));
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
      setDone(
        successMessage(
          message,
          t`Your password is changed and every session of your account has ended. Log in with the new password.`,
        ),
      );
    } catch (error) {
      setProblem(errorMessage(error, t`Changing the password failed`));
    } finally {
      setSubmitting(false);
    }
  }

  if (done)
    return (
      <Page width="narrow">
        <Card>
          <h1>{title}</h1>
          <p role="status">{done}</p>
          <p className={styles.alternate}>
            <Link to="/login/">
              <Trans>Go to the login page</Trans>
            </Link>
          </p>
        </Card>
      </Page>
    );

  return (
    <Page width="narrow">
      <Card>
        <h1>{title}</h1>
        <Lead>
          <Trans>Every session of your account ends once it is changed.</Trans>
        </Lead>
        <form className={styles.form} onSubmit={choose}>
          <NewPasswordFields label={t`New password`} />
          <div className={styles.actions}>
            <Button type="submit" busy={submitting}>
              <Trans>Set the new password</Trans>
            </Button>
          </div>
        </form>
        {problem && (
          <p role="alert" className={styles.alternate}>
            {problem}
          </p>
        )}
        <p className={styles.alternate}>
          <Link to="/forgot-password/">
            <Trans>Ask for a new link</Trans>
          </Link>
        </p>
      </Card>
    </Page>
  );
}
