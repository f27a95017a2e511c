import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
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

const TITLE = msg`Not answered yet`;

const STUDENT_TABLE = tableClassName({ cardsBelow: '40rem', labels: 'inline' }, styles.table);

/**
 * Who of a campaign's current round has not answered yet. Every staff role sees the counts; the
 * names, for those who may see students (the server decides, and records the reading).
 */
export function NotAnsweredScreen() {
  const { t, i18n } = useLingui();
  return (
    <AdminOnly ability="dashboard" title={i18n._(TITLE)} loadingText={t`Loading who has not answered...`}>
      <NotAnswered />
    </AdminOnly>
  );
}

function NotAnswered() {
  const { t, i18n } = useLingui();
  const { valid, query } = useCampaignQuery(notAnsweredQueryKey, fetchNotAnswered);
  if (!valid) return <NotFoundScreen />;
  return (
    <Page>
      <CampaignSubpageHeader title={i18n._(TITLE)} />
      {query.isPending ? (
        <LoadingStatus>
          <Trans>Loading who has not answered...</Trans>
        </LoadingStatus>
      ) : query.isError ? (
        <LoadError
          message={errorMessage(query.error, t`The list could not be loaded.`)}
          onRetry={() => void query.refetch()}
        />
      ) : (
        <NotAnsweredView data={query.data} />
      )}
    </Page>
  );
}

function NotAnsweredView({ data }: { data: NotAnsweredResponse }) {
  const { t, i18n } = useLingui();
  const { campaign } = data;
  const students = data.students;
  const template = campaign.template_name;
  const audience = audienceText(campaign);
  const round = data.round;
  const notAnswered = data.not_answered;
  const invited = data.invited;
  const shown = students?.length.toLocaleString(i18n.locale);
  const most = NOT_ANSWERED_MAX_LISTED.toLocaleString(i18n.locale);
  return (
    <>
      <Lead>
        <Trans>
          {template} to {audience}.
        </Trans>{' '}
        {data.round === 0 ? (
          t`No round has been sent yet.`
        ) : (
          <Trans>
            Round {round}, sent <ZonedTime at={campaign.last_run_at} />.
          </Trans>
        )}
      </Lead>
      <Card className={styles.card}>
        <p>
          {invited === 1 ? (
            <Trans>
              <strong>
                {notAnswered} of {invited}
              </strong>{' '}
              invited student has not answered this round yet.
            </Trans>
          ) : (
            <Trans>
              <strong>
                {notAnswered} of {invited}
              </strong>{' '}
              invited students have not answered this round yet.
            </Trans>
          )}
        </p>
        {students === undefined ? (
          <p className={styles.empty}>
            <Trans>Names and email addresses are shown to counsellors and administrators only.</Trans>
          </p>
        ) : students.length === 0 ? (
          <p className={styles.empty}>
            <Trans>Everyone invited this round has answered.</Trans>
          </p>
        ) : (
          <>
            {data.not_answered > students.length && (
              <p>
                <Trans>
                  Showing the first {shown} by name (at most {most}).
                </Trans>
              </p>
            )}
            <table className={STUDENT_TABLE}>
              <caption className="visually-hidden">
                <Trans>Students who have not answered yet</Trans>
              </caption>
              <thead>
                <tr>
                  <th scope="col">
                    <Trans>Name</Trans>
                  </th>
                  <th scope="col">
                    <Trans>Email</Trans>
                  </th>
                  <th scope="col">
                    <Trans>Group</Trans>
                  </th>
                  <th scope="col">
                    <Trans>Reminders sent</Trans>
                  </th>
                </tr>
              </thead>
              <tbody>
                {students.map((student) => (
                  <tr key={student.email}>
                    <th scope="row">{student.name}</th>
                    <td data-label={t`Email`}>{student.email}</td>
                    <td data-label={t`Group`}>{student.group ?? t`No group`}</td>
                    <td data-label={t`Reminders sent`}>{student.reminders}</td>
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
