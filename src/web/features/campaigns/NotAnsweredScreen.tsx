import { NOT_ANSWERED_MAX_LISTED, type NotAnsweredResponse } from '../../../common/schemas/campaigns';
import { errorMessage } from '../../api';
import { LoadError } from '../../ui/LoadError';
import { Card, Lead, Page } from '../../ui/Page';
import { tableClassName } from '../../ui/Table';
import { AdminOnly, LoadingStatus } from '../admin/AdminOnly';
import { NotFoundScreen } from '../not-found/NotFoundScreen';
import styles from '../roster/Roster.module.css';
import { ZonedTime } from '../time/ZonedTime';
import { CampaignSubpageHeader, useCampaignQuery } from './CampaignSubpage';
import { audienceText } from './CampaignsScreen';
import { fetchNotAnswered, notAnsweredQueryKey } from './notAnsweredApi';

const TITLE = 'Not answered yet';

const STUDENT_TABLE = tableClassName({ cardsBelow: '40rem', labels: 'inline' }, styles.table);

/**
 * Who of a campaign's current round has not answered yet. Every staff role sees the counts; the
 * names, for those who may see students (the server decides, and records the reading).
 */
export function NotAnsweredScreen() {
  return (
    <AdminOnly ability="dashboard" title={TITLE} loadingText="Loading who has not answered...">
      <NotAnswered />
    </AdminOnly>
  );
}

function NotAnswered() {
  const { valid, query } = useCampaignQuery(notAnsweredQueryKey, fetchNotAnswered);
  if (!valid) return <NotFoundScreen />;
  return (
    <Page>
      <CampaignSubpageHeader title={TITLE} />
      {query.isPending ? (
        <LoadingStatus>Loading who has not answered...</LoadingStatus>
      ) : query.isError ? (
        <LoadError
          message={errorMessage(query.error, 'The list could not be loaded.')}
          onRetry={() => void query.refetch()}
        />
      ) : (
        <NotAnsweredView data={query.data} />
      )}
    </Page>
  );
}

function NotAnsweredView({ data }: { data: NotAnsweredResponse }) {
  const { campaign } = data;
  const students = data.students;
  return (
    <>
      <Lead>
        {campaign.template_name} to {audienceText(campaign)}.{' '}
        {data.round === 0 ? (
          'No round has been sent yet.'
        ) : (
          <>
            Round {data.round}, sent <ZonedTime at={campaign.last_run_at} />.
          </>
        )}
      </Lead>
      <Card className={styles.card}>
        <p>
          <strong>
            {data.not_answered} of {data.invited}
          </strong>{' '}
          invited {data.invited === 1 ? 'student has' : 'students have'} not answered this round yet.
        </p>
        {students === undefined ? (
          <p className={styles.empty}>
            Names and email addresses are shown to counsellors and administrators only.
          </p>
        ) : students.length === 0 ? (
          <p className={styles.empty}>Everyone invited this round has answered.</p>
        ) : (
          <>
            {data.not_answered > students.length && (
              <p>
                Showing the first {students.length.toLocaleString()} by name (at most{' '}
                {NOT_ANSWERED_MAX_LISTED.toLocaleString()}).
              </p>
            )}
            <table className={STUDENT_TABLE}>
              <caption className="visually-hidden">Students who have not answered yet</caption>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Email</th>
                  <th scope="col">Group</th>
                  <th scope="col">Reminders sent</th>
                </tr>
              </thead>
              <tbody>
                {students.map((student) => (
                  <tr key={student.email}>
                    <th scope="row">{student.name}</th>
                    <td data-label="Email">{student.email}</td>
                    <td data-label="Group">{student.group ?? 'No group'}</td>
                    <td data-label="Reminders sent">{student.reminders}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </>
        )}
      </Card>
    </>
  );
}
