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

const TITLE = 'Your records';

const when = (iso: string | null) =>
  iso === null
    ? 'never'
    : new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

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
  useDocumentTitle(pageTitle(TITLE));
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
        <h1>{TITLE}</h1>
        <p role="alert">Records downloads are for students, of what their institution holds about them.</p>
      </Page>
    );
  }
  return <OwnRecords />;
}

function OwnRecords() {
  const query = useQuery({ queryKey: OWN_RECORDS_QUERY_KEY, queryFn: fetchOwnRecords });
  return (
    <Page width="medium">
      <h1>{TITLE}</h1>
      <Lead>
        Everything your institution holds about you through this service. Screening scores are reviewed by
        staff, and counsellors&apos; case notes are treatment records kept apart: neither is included.
      </Lead>
      {query.isPending ? (
        <LoadingStatus>Loading your records...</LoadingStatus>
      ) : query.isError ? (
        <LoadError message="Failed to load your records" onRetry={() => void query.refetch()} />
      ) : (
        <Records records={query.data.records} />
      )}
    </Page>
  );
}

function Records({ records }: { records: StudentRecords }) {
  const { student, roster } = records;
  return (
    <>
      <Button onClick={() => download(records)}>Download as JSON</Button>
      <Card className={styles.section}>
        <h2 className={styles.sectionTitle}>About you</h2>
        <dl className={styles.answers}>
          <dt>Name</dt>
          <dd>{student.name}</dd>
          <dt>Email</dt>
          <dd>{student.email}</dd>
          <dt>Institution</dt>
          <dd>{student.institution}</dd>
          <dt>Account created</dt>
          <dd>{when(student.account_created_at)}</dd>
          {roster && (
            <>
              <dt>On the roster since</dt>
              <dd>
                {when(roster.added_at)}
                {roster.group ? `, group ${roster.group}` : ''}
                {roster.left_at ? ` (left ${when(roster.left_at)})` : ''}
              </dd>
            </>
          )}
        </dl>
      </Card>
      <Card className={styles.section}>
        <h2 className={styles.sectionTitle}>Check-ins ({records.check_ins.length})</h2>
        {records.check_ins.length === 0 && <p className={styles.muted}>No check-in yet.</p>}
        {records.check_ins.map((checkIn, index) => (
          // Check-ins are listed oldest first and never reorder: the position names each one.
          // biome-ignore lint/suspicious/noArrayIndexKey: see above.
          <article key={index} className={styles.checkIn}>
            <h3>
              {when(checkIn.submitted_at)}
              {checkIn.verified ? '' : ' (address not confirmed)'}
            </h3>
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
        <h2 className={styles.sectionTitle}>Unsent drafts ({records.drafts.length})</h2>
        {records.drafts.length === 0 ? (
          <p className={styles.muted}>No unsent draft.</p>
        ) : (
          <ul className={styles.list}>
            {records.drafts.map((draft) => (
              <li key={draft.survey_id}>Saved {when(draft.updated_at)}</li>
            ))}
          </ul>
        )}
      </Card>
      <Card className={styles.section}>
        <h2 className={styles.sectionTitle}>Survey invitations ({records.invitations.length})</h2>
        {records.invitations.length === 0 ? (
          <p className={styles.muted}>No invitation.</p>
        ) : (
          <ul className={styles.list}>
            {records.invitations.map((invitation) => (
              <li key={`${invitation.campaign_id}-${invitation.round}`}>
                Invited {when(invitation.invited_at)}
                {invitation.answered_at ? `, answered ${when(invitation.answered_at)}` : ', not answered'}
              </li>
            ))}
          </ul>
        )}
      </Card>
      {records.records_requests.length > 0 && (
        <Card className={styles.section}>
          <h2 className={styles.sectionTitle}>Your records requests</h2>
          <ul className={styles.list}>
            {records.records_requests.map((request) => (
              <li key={request.opened_at}>
                Opened {when(request.opened_at)}
                {request.fulfilled_at
                  ? `, fulfilled ${when(request.fulfilled_at)}`
                  : `, due ${when(request.due_at)}`}
              </li>
            ))}
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
