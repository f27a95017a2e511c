import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { errorMessage } from '../../api';
import { pageTitle } from '../../config';
import { Button } from '../../ui/Button';
import { TextField } from '../../ui/Field';
import { MessageModal, type ModalMessage } from '../../ui/Modal';
import { NewPasswordFields } from '../../ui/NewPasswordFields';
import { Card, Lead, Page } from '../../ui/Page';
import { useDocumentTitle } from '../../ui/useDocumentTitle';
import { LoadingStatus } from '../admin/AdminOnly';
import styles from '../auth/Auth.module.css';
import { AUTH_REDIRECT_DELAY_MS, destinationAfterLogin } from '../auth/redirects';
import { CURRENT_USER_QUERY_KEY } from '../auth/useCurrentUser';
import { acceptInvitation, fetchInvitation } from './teamApi';

const TITLE = msg`Join your team`;

/**
 * Where an invitation mail leads (design section 9): the invited person sees whom the link is
 * for, chooses their own password (the registration rules) and is signed in.
 */
export function InvitationScreen() {
  const { t, i18n } = useLingui();
  useDocumentTitle(pageTitle(i18n._(TITLE)));
  const { token = '' } = useParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const invitation = useQuery({
    queryKey: ['invitation', token],
    queryFn: () => fetchInvitation(token),
    retry: false,
  });
  const [message, setMessage] = useState<ModalMessage | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const redirectTimer = useRef<number | undefined>(undefined);

  useEffect(() => () => window.clearTimeout(redirectTimer.current), []);

  async function join(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (submitting) return;
    const form = new FormData(event.currentTarget);
    setSubmitting(true);
    try {
      const { user } = await acceptInvitation(
        token,
        String(form.get('password') ?? ''),
        String(form.get('confirm_password') ?? ''),
      );
      setMessage({
        title: t`Welcome`,
        text: t`Your password is set and you are signed in.`,
        tone: 'success',
      });
      redirectTimer.current = window.setTimeout(() => {
        queryClient.clear();
        queryClient.setQueryData(CURRENT_USER_QUERY_KEY, user);
        navigate(destinationAfterLogin(user, null), { replace: true });
      }, AUTH_REDIRECT_DELAY_MS);
    } catch (error) {
      setMessage({ title: t`Could not join`, text: errorMessage(error, t`Joining failed`), tone: 'error' });
      setSubmitting(false);
    }
  }

  if (invitation.isPending)
    return (
      <Page width="narrow">
        <LoadingStatus>
          <Trans>Checking your invitation...</Trans>
        </LoadingStatus>
      </Page>
    );

  if (invitation.isError)
    return (
      <Page width="narrow">
        <Card>
          <h1>{i18n._(TITLE)}</h1>
          <p role="alert">{errorMessage(invitation.error, t`This invitation cannot be used.`)}</p>
          <p className={styles.alternate}>
            <Link to="/login/">
              <Trans>Go to the login page</Trans>
            </Link>
          </p>
        </Card>
      </Page>
    );

  const details = invitation.data;
  const institution = details.institution_name;
  const invitedAs = {
    admin: t`${institution} invited you as an admin.`,
    counsellor: t`${institution} invited you as a counsellor.`,
    viewer: t`${institution} invited you as a viewer.`,
  }[details.role];
  return (
    <Page width="narrow">
      <Card>
        <h1>{i18n._(TITLE)}</h1>
        <Lead>
          {invitedAs} <Trans>Choose a password to finish.</Trans>
        </Lead>
        <form className={styles.form} onSubmit={join}>
          <TextField label={t`Name`} value={details.name} readOnly />
          <TextField label={t`Email`} type="email" value={details.email} autoComplete="username" readOnly />
          <NewPasswordFields />
          <div className={styles.actions}>
            <Button type="submit" busy={submitting}>
              <Trans>Set password and sign in</Trans>
            </Button>
          </div>
        </form>
      </Card>
      <MessageModal message={message} onClose={() => setMessage(null)} />
    </Page>
  );
}
