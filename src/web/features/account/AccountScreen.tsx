import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { Link } from 'react-router';
import { PASSWORD_MIN_LENGTH } from '../../../common/schemas/auth';
import { errorMessage, hasErrorCode } from '../../api';
import { pageTitle } from '../../config';
import { Button } from '../../ui/Button';
import { TextField } from '../../ui/Field';
import { Flash, useFlash } from '../../ui/Flash';
import { LoadError } from '../../ui/LoadError';
import { Card, Lead, Page } from '../../ui/Page';
import { useDocumentTitle } from '../../ui/useDocumentTitle';
import { LoadingStatus, useLoginRedirect } from '../admin/AdminOnly';
import { CheckingAuthentication } from '../auth/LoginScreen';
import { useCurrentUser } from '../auth/useCurrentUser';
import { AppEnrolment, RecoveryCodeList } from '../second-factor/AppEnrolment';
import {
  confirmAppReplacement,
  confirmAppSetup,
  fetchSecondFactorStatus,
  SECOND_FACTOR_QUERY_KEY,
  startAppReplacement,
} from '../second-factor/secondFactorApi';
import { PasskeysSection, RecoveryCodesSection } from '../security/SecurityScreen';
import { useStepUp } from '../security/StepUp';
import styles from '../settings/Settings.module.css';
import { useZonedFormat } from '../time/ZonedTime';
import { changePassword, fetchSessions, SESSIONS_QUERY_KEY, signOutOtherSessions } from './accountApi';

const TITLE = msg`Your account`;

/** Every signed-in user's own account: their password and sessions; for staff, how they sign in. */
export function AccountScreen() {
  const { i18n } = useLingui();
  useDocumentTitle(pageTitle(i18n._(TITLE)));
  const { data: user, isPending } = useCurrentUser();
  useLoginRedirect(user === null);
  const { flash, showFlash } = useFlash();
  const stepUp = useStepUp();
  if (isPending || !user) {
    return (
      <Page width="narrow">
        <CheckingAuthentication />
      </Page>
    );
  }
  const isStaff = user.role !== 'student' && !user.is_superuser;
  const { name, email } = user;
  return (
    <Page width="medium">
      <h1>{i18n._(TITLE)}</h1>
      <Lead>
        <Trans>
          Signed in as {name} ({email}).
        </Trans>
        {isStaff && (
          <>
            {' '}
            <Trans>Changes to how you sign in are mailed to you and need your second factor again.</Trans>
          </>
        )}
      </Lead>
      <Flash flash={flash} floating />
      {user.role === 'student' && (
        <p>
          <Trans>
            <Link to="/account/records/">See and download your records</Link>: everything your institution
            holds about you here.
          </Trans>
        </p>
      )}
      <PasswordSection confirmed={stepUp.confirmed} showFlash={showFlash} />
      <SessionsSection showFlash={showFlash} />
      {isStaff && (
        <>
          <AuthenticatorAppSection confirmed={stepUp.confirmed} showFlash={showFlash} />
          <PasskeysSection confirmed={stepUp.confirmed} showFlash={showFlash} />
          <RecoveryCodesSection confirmed={stepUp.confirmed} showFlash={showFlash} />
        </>
      )}
      {stepUp.dialog}
    </Page>
  );
}

interface SectionProps {
  confirmed: ReturnType<typeof useStepUp>['confirmed'];
  showFlash: ReturnType<typeof useFlash>['showFlash'];
}

function PasswordSection({ confirmed, showFlash }: SectionProps) {
  const { t } = useLingui();
  const headingId = useId();
  const queryClient = useQueryClient();
  const change = useMutation({
    mutationFn: (request: { form: HTMLFormElement; values: Parameters<typeof changePassword>[0] }) =>
      confirmed(() => changePassword(request.values)),
    onSuccess: (answer, request) => {
      request.form.reset();
      showFlash(answer.message);
      void queryClient.invalidateQueries({ queryKey: SESSIONS_QUERY_KEY });
    },
    onError: (error) =>
      showFlash(
        hasErrorCode(error, 'TOO_MANY_REQUESTS')
          ? errorMessage(error, t`Too many tries. Please wait and try again.`)
          : errorMessage(error, t`The password could not be changed.`),
        'error',
      ),
  });

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    const field = (name: string) => String(data.get(name) ?? '');
    change.mutate({
      form,
      values: {
        current_password: field('current_password'),
        new_password: field('new_password'),
        confirm_password: field('confirm_password'),
      },
    });
  }

  const minLength = PASSWORD_MIN_LENGTH;
  return (
    <Card className={styles.section}>
      <section aria-labelledby={headingId}>
        <h2 className={styles.sectionTitle} id={headingId}>
          <Trans>Password</Trans>
        </h2>
        <p className={styles.muted}>
          <Trans>Changing it signs out every other browser where you are signed in.</Trans>
        </p>
        <form onSubmit={submit} aria-labelledby={headingId}>
          <TextField
            label={t`Current password`}
            name="current_password"
            type="password"
            autoComplete="current-password"
            required
          />
          <TextField
            label={t`New password`}
            name="new_password"
            type="password"
            autoComplete="new-password"
            hint={t`At least ${minLength} characters; a few uncommon words work well.`}
            required
          />
          <TextField
            label={t`Confirm new password`}
            name="confirm_password"
            type="password"
            autoComplete="new-password"
            required
          />
          <Button type="submit" busy={change.isPending}>
            <Trans>Change password</Trans>
          </Button>
        </form>
      </section>
    </Card>
  );
}

/**
 * The authenticator app: set up here by staff who have none (who signed up with a passkey, say),
 * with the same QR code and first code as the sign-in's set-up, or replaced by a new one (a new
 * phone) the same way. The server asks for the second factor again before either, tells the owner
 * by mail and records it; a replaced app works until its successor's first code is confirmed.
 */
function AuthenticatorAppSection({ confirmed, showFlash }: SectionProps) {
  const { t } = useLingui();
  const headingId = useId();
  const queryClient = useQueryClient();
  const query = useQuery({ queryKey: SECOND_FACTOR_QUERY_KEY, queryFn: fetchSecondFactorStatus });
  const [adding, setAdding] = useState(false);
  const [replacing, setReplacing] = useState(false);
  const [codes, setCodes] = useState<string[] | null>(null);
  return (
    <Card className={styles.section}>
      <section aria-labelledby={headingId}>
        <h2 className={styles.sectionTitle} id={headingId}>
          <Trans>Authenticator app</Trans>
        </h2>
        {query.isPending ? (
          <LoadingStatus>
            <Trans>Loading your second factors...</Trans>
          </LoadingStatus>
        ) : query.isError ? (
          <LoadError message={t`Failed to load your second factors`} onRetry={() => void query.refetch()} />
        ) : query.data.totp && replacing ? (
          <>
            <p>
              <Trans>
                Set up the new app below. Your current app keeps working until you confirm the new one with
                its first code; then it stops working.
              </Trans>
            </p>
            <AppEnrolment
              start={() => confirmed(startAppReplacement)}
              confirm={(code) => confirmed(() => confirmAppReplacement(code))}
              onDone={(answer) => {
                setReplacing(false);
                showFlash(answer.message);
                void queryClient.invalidateQueries({ queryKey: SECOND_FACTOR_QUERY_KEY });
              }}
              actions={
                <Button variant="secondary" onClick={() => setReplacing(false)}>
                  <Trans>Cancel</Trans>
                </Button>
              }
            />
          </>
        ) : query.data.totp ? (
          <>
            <p className={styles.muted}>
              <Trans>An authenticator app is set up for your account.</Trans>
            </p>
            <div className={styles.buttons}>
              <Button variant="secondary" onClick={() => setReplacing(true)}>
                <Trans>Replace authenticator app</Trans>
              </Button>
            </div>
          </>
        ) : adding ? (
          <AppEnrolment
            confirm={(code) => confirmed(() => confirmAppSetup(code))}
            onDone={(answer) => {
              setAdding(false);
              setCodes(answer.recovery_codes);
              showFlash(answer.message);
              void queryClient.invalidateQueries({ queryKey: SECOND_FACTOR_QUERY_KEY });
            }}
          />
        ) : (
          <>
            <p className={styles.muted}>
              <Trans>You have no authenticator app.</Trans>
            </p>
            <div className={styles.buttons}>
              <Button variant="secondary" onClick={() => setAdding(true)}>
                <Trans>Add an authenticator app</Trans>
              </Button>
            </div>
          </>
        )}
        {codes && (
          <>
            <p>
              <Trans>
                Your recovery codes are new: keep these somewhere safe, they are shown only this once.
              </Trans>
            </p>
            <RecoveryCodeList codes={codes} />
          </>
        )}
      </section>
    </Card>
  );
}

function SessionsSection({ showFlash }: Pick<SectionProps, 'showFlash'>) {
  const { t } = useLingui();
  const headingId = useId();
  const when = useZonedFormat();
  const queryClient = useQueryClient();
  const query = useQuery({ queryKey: SESSIONS_QUERY_KEY, queryFn: fetchSessions });
  const end = useMutation({
    mutationFn: signOutOtherSessions,
    onSuccess: (answer) => {
      showFlash(answer.message);
      void queryClient.invalidateQueries({ queryKey: SESSIONS_QUERY_KEY });
    },
    onError: (error) =>
      showFlash(errorMessage(error, t`The other sessions could not be signed out.`), 'error'),
  });
  const others = query.data?.sessions.filter((session) => !session.current) ?? [];
  const otherCount = others.length;
  return (
    <Card className={styles.section}>
      <section aria-labelledby={headingId}>
        <h2 className={styles.sectionTitle} id={headingId}>
          <Trans>Where you are signed in</Trans>
        </h2>
        {query.isPending ? (
          <LoadingStatus>
            <Trans>Loading sessions...</Trans>
          </LoadingStatus>
        ) : query.isError ? (
          <LoadError message={t`Failed to load your sessions`} onRetry={() => void query.refetch()} />
        ) : (
          <>
            <ul aria-labelledby={headingId}>
              {query.data.sessions.map((session) => {
                const signedIn = when(session.created_at);
                const lastSeen = when(session.last_seen_at);
                return (
                  <li key={`${session.created_at}-${session.last_seen_at}-${session.current}`}>
                    {session.current ? (
                      <strong>
                        <Trans>This browser</Trans>
                      </strong>
                    ) : (
                      t`Another browser`
                    )}{' '}
                    <span className={styles.muted}>
                      <Trans>
                        signed in {signedIn}, last seen {lastSeen}
                      </Trans>
                    </span>
                  </li>
                );
              })}
            </ul>
            <Button
              variant="secondary"
              busy={end.isPending}
              disabled={others.length === 0}
              onClick={() => end.mutate()}
            >
              <Trans>Sign out other sessions ({otherCount})</Trans>
            </Button>
          </>
        )}
      </section>
    </Card>
  );
}
