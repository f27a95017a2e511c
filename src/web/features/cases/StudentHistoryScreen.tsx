import { Trans, useLingui } from '@lingui/react/macro';
import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
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
import { CASE_OUTCOME_LABELS, CATEGORY_MEANS_LEGEND, categoryLabel, formatOneDecimal } from './format';
import { SubmissionList } from './SubmissionList';

/** One student: every check-in with tier, reasons and means against their own baseline, and every case. */
export function StudentHistoryScreen() {
  const { t } = useLingui();
  return (
    <AdminOnly ability="cases" title={t`Student history`} loadingText={t`Loading the history...`}>
      <StudentHistory />
    </AdminOnly>
  );
}

function StudentHistory() {
  const { t, i18n } = useLingui();
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
        <LoadingStatus>
          <Trans>Loading history...</Trans>
        </LoadingStatus>
      </Page>
    );
  }
  if (query.isError) {
    return (
      <Page>
        <LoadError
          message={errorMessage(query.error, t`Failed to load the history`)}
          onRetry={() => void query.refetch()}
        />
      </Page>
    );
  }
  const { student, baseline, submissions, cases } = query.data;
  const baselineEntries = Object.entries(baseline);
  const legend = i18n._(CATEGORY_MEANS_LEGEND);
  const usual = baselineEntries
    .map(([category, value]) => `${categoryLabel(category)} ${formatOneDecimal(value)}`)
    .join(', ');
  return (
    <Page>
      <div className={layout.heading}>
        <div>
          <h1>{student.name}</h1>
          <Lead>{student.email}</Lead>
        </div>
        <nav className={layout.toolbar} aria-label={t`History links`}>
          <ButtonLink variant="secondary" to="/cases/">
            <Trans>All cases</Trans>
          </ButtonLink>
          <ButtonLink variant="secondary" to="/dashboard/">
            <Trans>Dashboard</Trans>
          </ButtonLink>
        </nav>
      </div>
      <div className={styles.layout}>
        <Card className={styles.section}>
          <h2>
            <Trans>Check-ins, newest first</Trans>
          </h2>
          <p className={styles.muted}>
            {baselineEntries.length === 0
              ? t`No confirmed earlier check-ins to compare with yet.`
              : t`Usual answers (baseline; ${legend}): ${usual}. Each check-in is compared with the usual answers before it.`}
          </p>
          <SubmissionList submissions={submissions} />
        </Card>
        <div>
          <Card className={styles.section}>
            <h2>
              <Trans>Cases</Trans>
            </h2>
            {cases.length === 0 && (
              <p className={styles.muted}>
                <Trans>No cases.</Trans>
              </p>
            )}
            {cases.map((item) => {
              const id = item.id;
              const outcome = item.outcome ? i18n._(CASE_OUTCOME_LABELS[item.outcome]) : null;
              return (
                <section key={id} className={styles.submission} aria-label={t`Case ${id}`}>
                  <p>
                    <Trans>
                      <Link to={casePath(id)}>Case {id}</Link> · opened <ZonedTime at={item.opened_at} />
                    </Trans>
                  </p>
                  <CaseBadges item={item} />
                  {outcome && (
                    <p>
                      <Trans>Outcome: {outcome}</Trans>
                    </p>
                  )}
                  <CaseTrail events={item.events} />
                </section>
              );
            })}
          </Card>
        </div>
      </div>
    </Page>
  );
}
