import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useQuery } from '@tanstack/react-query';
import type { StudentRecords } from '../../../common/schemas/records';
import { pageTitle } from '../../config';
import { Button } from '../../ui/Button';
import { LoadError } from '../../ui/LoadError';
import { Card, Lead, Page } from '../../ui/Page';
import { useDocumentTitle } from '../../ui/useDocumentTitle';
import { LoadingStatus, useLoginRedirect } from '../admin/AdminOnly';
import { CheckingAuthentication } from '../auth/LoginScreen';
import { useCurrentUser } from '../auth/useCurrentUser';
import styles from './Records.module.css';
import { fetchOwnRecords, OWN_RECORDS_QUERY_KEY } from './recordsApi';

const TITLE = msg`Your records`;

/** A moment of the records as the page's language writes it, or "never". */
function useWhen(): (iso: string | null) => string {
  const { t, i18n } = useLingui();
  return (iso) =>
    iso === null
      ? t`never`
      : new Date(iso).toLocaleString(i18n.locale, { dateStyle: 'medium', timeStyle: 'short' });
}

/** Hands the browser the records as a JSON file, exactly as the server gave them. */
function download(records: StudentRecords) {
  const blob = new Blob([`${JSON.stringify(records, null, 2)}\n`], { type: 'application/json' });
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = `records-${records.generated_at.slice(0, 10)}.json`;
  document.body.append(link);
  link.click();
  link.remove();
  URL.revokeObjectURL(url);
}

/** A signed-in student's own records (design section 14): readable here, and as a JSON download. */
export function OwnRecordsScreen() {
  const { i18n } = useLingui();
  useDocumentTitle(pageTitle(i18n._(TITLE)));
  const { data: user, isPending } = useCurrentUser();
  useLoginRedirect(user === null);
  if (isPending || !user) {
    return (
      <Page width="narrow">
        <CheckingAuthentication />
      </Page>
    );
  }
  if (user.role !== 'student') {
    return (
      <Page width="narrow">
        <h1>{i18n._(TITLE)}</h1>
        <p role="alert">
          <Trans>Records downloads are for students, of what their institution holds about them.</Trans>
        </p>
      </Page>
    );
  }
  return <OwnRecords />;
}

function OwnRecords() {
  const { t, i18n } = useLingui();
  const query = useQuery({ queryKey: OWN_RECORDS_QUERY_KEY, queryFn: fetchOwnRecords });
  return (
    <Page width="medium">
      <h1>{i18n._(TITLE)}</h1>
      <Lead>
        <Trans>
          Everything your institution holds about you through this service. Screening scores are reviewed by
          staff, and counsellors&apos; case notes are treatment records kept apart: neither is included.
        </Trans>
      </Lead>
      {query.isPending ? (
        <LoadingStatus>
          <Trans>Loading your records...</Trans>
        </LoadingStatus>
      ) : query.isError ? (
        <LoadError message={t`Failed to load your records`} onRetry={() => void query.refetch()} />
      ) : (
        <Records records={query.data.records} />
      )}
    </Page>
  );
}

/** Since when the student is on the roster: the date, their group and when they left, if they did. */
function rosterSince(
  roster: NonNullable<StudentRecords['roster']>,
  when: (iso: string | null) => string,
  t: ReturnType<typeof useLingui>['t'],
): string {
  const since = when(roster.added_at);
  const { group } = roster;
  const left = roster.left_at ? when(roster.left_at) : null;
  if (group && left) return t`${since}, group ${group} (left ${left})`;
  if (group) return t`${since}, group ${group}`;
  if (left) return t`${since} (left ${left})`;
  return since;
}

function Records({ records }: { records: StudentRecords }) {
  const { t } = useLingui();
  const when = useWhen();
  const { student, roster } = records;
  const checkInCount = records.check_ins.length;
  const draftCount = records.drafts.length;
  const invitationCount = records.invitations.length;
  const unconfirmed = (submitted: string) => t`${submitted} (address not confirmed)`;
  const saved = (savedAt: string) => t`Saved ${savedAt}`;
  return (
    <>
      <Button onClick={() => download(records)}>
        <Trans>Download as JSON</Trans>
      </Button>
      <Card className={styles.section}>
        <h2 className={styles.sectionTitle}>
          <Trans>About you</Trans>
        </h2>
        <dl className={styles.answers}>
          <dt>
            <Trans>Name</Trans>
          </dt>
          <dd>{student.name}</dd>
          <dt>
            <Trans>Email</Trans>
          </dt>
          <dd>{student.email}</dd>
          <dt>
            <Trans>Institution</Trans>
          </dt>
          <dd>{student.institution}</dd>
          <dt>
            <Trans>Account created</Trans>
          </dt>
          <dd>{when(student.account_created_at)}</dd>
          {roster && (
            <>
              <dt>
                <Trans>On the roster since</Trans>
              </dt>
              <dd>{rosterSince(roster, when, t)}</dd>
            </>
          )}
        </dl>
      </Card>
      <Card className={styles.section}>
        <h2 className={styles.sectionTitle}>
          <Trans>Check-ins ({checkInCount})</Trans>
        </h2>
        {records.check_ins.length === 0 && (
          <p className={styles.muted}>
            <Trans>No check-in yet.</Trans>
          </p>
        )}
        {records.check_ins.map((checkIn, index) => (
          // Check-ins are listed oldest first and never reorder: the position names each one.
          // biome-ignore lint/suspicious/noArrayIndexKey: see above.
          <article key={index} className={styles.checkIn}>
            <h3>{checkIn.verified ? when(checkIn.submitted_at) : unconfirmed(when(checkIn.submitted_at))}</h3>
            <dl className={styles.answers}>
              {checkIn.answers.map((answer, position) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: two questions may share their wording.
                <Pair key={position} term={answer.question} value={answer.value} />
              ))}
              {checkIn.screening_answers.flatMap((block) =>
                block.items.map((item) => (
                  <Pair key={`${block.instrument}-${item.item}`} term={item.item} value={item.answer} />
                )),
              )}
            </dl>
          </article>
        ))}
      </Card>
      <Card className={styles.section}>
        <h2 className={styles.sectionTitle}>
          <Trans>Unsent drafts ({draftCount})</Trans>
        </h2>
        {records.drafts.length === 0 ? (
          <p className={styles.muted}>
            <Trans>No unsent draft.</Trans>
          </p>
        ) : (
          <ul className={styles.list}>
            {records.drafts.map((draft) => (
              <li key={draft.survey_id}>{saved(when(draft.updated_at))}</li>
            ))}
          </ul>
        )}
      </Card>
      <Card className={styles.section}>
        <h2 className={styles.sectionTitle}>
          <Trans>Survey invitations ({invitationCount})</Trans>
        </h2>
        {records.invitations.length === 0 ? (
          <p className={styles.muted}>
            <Trans>No invitation.</Trans>
          </p>
        ) : (
          <ul className={styles.list}>
            {records.invitations.map((invitation) => {
              const invited = when(invitation.invited_at);
              const answered = invitation.answered_at ? when(invitation.answered_at) : null;
              return (
                <li key={`${invitation.campaign_id}-${invitation.round}`}>
                  {answered
                    ? t`Invited ${invited}, answered ${answered}`
                    : t`Invited ${invited}, not answered`}
                </li>
              );
            })}
          </ul>
        )}
      </Card>
      {records.records_requests.length > 0 && (
        <Card className={styles.section}>
          <h2 className={styles.sectionTitle}>
            <Trans>Your records requests</Trans>
          </h2>
          <ul className={styles.list}>
            {records.records_requests.map((request) => {
              const opened = when(request.opened_at);
              const fulfilled = request.fulfilled_at ? when(request.fulfilled_at) : null;
              const due = when(request.due_at);
              return (
                <li key={request.opened_at}>
                  {fulfilled ? t`Opened ${opened}, fulfilled ${fulfilled}` : t`Opened ${opened}, due ${due}`}
                </li>
              );
            })}
          </ul>
        </Card>
      )}
    </>
  );
}

function Pair({ term, value }: { term: string; value: string }) {
  return (
    <>
      <dt>{term}</dt>
      <dd>{value}</dd>
    </>
  );
}
