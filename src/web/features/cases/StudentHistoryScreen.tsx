import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { CASE_OUTCOME_LABELS } from '../../../common/schemas/cases';
import { CATEGORY_MEANS_LEGEND } from '../../../common/schemas/templates';
import { errorMessage } from '../../api';
import { ButtonLink } from '../../ui/Button';
import { LoadError } from '../../ui/LoadError';
import { Card, Lead, Page } from '../../ui/Page';
import { AdminOnly, LoadingStatus } from '../admin/AdminOnly';
import layout from '../admin/AdminPage.module.css';
import { NotFoundScreen } from '../not-found/NotFoundScreen';
import { ZonedTime } from '../time/ZonedTime';
import { CaseBadges } from './CaseBadges';
import styles from './Cases.module.css';
import { CaseTrail } from './CaseTrail';
import { casePath, fetchStudentHistory, historyQueryKey } from './casesApi';
import { categoryLabel } from './format';
import { SubmissionList } from './SubmissionList';

const TITLE = 'Student history';

/** One student: every check-in with tier, reasons and means against their own baseline, and every case. */
export function StudentHistoryScreen() {
  return (
    <AdminOnly ability="cases" title={TITLE} loadingText="Loading the history...">
      <StudentHistory />
    </AdminOnly>
  );
}

function StudentHistory() {
  const id = Number(useParams().id);
  const valid = Number.isInteger(id) && id > 0;
  const query = useQuery({
    queryKey: historyQueryKey(id),
    queryFn: () => fetchStudentHistory(id),
    enabled: valid,
  });
  if (!valid) return <NotFoundScreen />;
  if (query.isPending) {
    return (
      <Page>
        <LoadingStatus>Loading history...</LoadingStatus>
      </Page>
    );
  }
  if (query.isError) {
    return (
      <Page>
        <LoadError
          message={errorMessage(query.error, 'Failed to load the history')}
          onRetry={() => void query.refetch()}
        />
      </Page>
    );
  }
  const { student, baseline, submissions, cases } = query.data;
  const baselineEntries = Object.entries(baseline);
  return (
    <Page>
      <div className={layout.heading}>
        <div>
          <h1>{student.name}</h1>
          <Lead>{student.email}</Lead>
        </div>
        <nav className={layout.toolbar} aria-label="History links">
          <ButtonLink variant="secondary" to="/cases/">
            All cases
          </ButtonLink>
          <ButtonLink variant="secondary" to="/dashboard/">
            Dashboard
          </ButtonLink>
        </nav>
      </div>
      <div className={styles.layout}>
        <Card className={styles.section}>
          <h2>Check-ins, newest first</h2>
          <p className={styles.muted}>
            {baselineEntries.length === 0
              ? 'No confirmed earlier check-ins to compare with yet.'
              : `Usual answers (baseline; ${CATEGORY_MEANS_LEGEND}): ${baselineEntries
                  .map(([category, value]) => `${categoryLabel(category)} ${value.toFixed(1)}`)
                  .join(', ')}. Each check-in is compared with the usual answers before it.`}
          </p>
          <SubmissionList submissions={submissions} />
        </Card>
        <div>
          <Card className={styles.section}>
            <h2>Cases</h2>
            {cases.length === 0 && <p className={styles.muted}>No cases.</p>}
            {cases.map((item) => (
              <section key={item.id} className={styles.submission} aria-label={`Case ${item.id}`}>
                <p>
                  <Link to={casePath(item.id)}>Case {item.id}</Link> · opened{' '}
                  <ZonedTime at={item.opened_at} />
                </p>
                <CaseBadges item={item} />
                {item.outcome && <p>Outcome: {CASE_OUTCOME_LABELS[item.outcome]}</p>}
                <CaseTrail events={item.events} />
              </section>
            ))}
          </Card>
        </div>
      </div>
    </Page>
  );
}
