import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useId } from 'react';
import { Link } from 'react-router';
import { can, type RoleName } from '../../../common/roles';
import type { DashboardData } from '../../../common/schemas/dashboard';
import type { TemplateSummary } from '../../../common/schemas/templates';
import { isSuppressed } from '../../../common/small-groups';
import { formatZonedTime } from '../../../common/zoned-format';
import { hasErrorCode } from '../../api';
import { Button, ButtonLink, buttonClassName } from '../../ui/Button';
import { Flash, useFlash } from '../../ui/Flash';
import { LoadError } from '../../ui/LoadError';
import { Page } from '../../ui/Page';
import { AccessRequired, AdminOnly, LoadingStatus, useLoginRedirect } from '../admin/AdminOnly';
import layout from '../admin/AdminPage.module.css';
import { useCurrentUser } from '../auth/useCurrentUser';
import { formatDuration } from '../cases/format';
import { copyToClipboard, surveyLinkUrl } from '../templates/surveyLink';
import { fetchTemplates, TEMPLATES_QUERY_KEY } from '../templates/templatesApi';
import { useInstitutionTimeZone } from '../time/ZonedTime';
import styles from './Dashboard.module.css';
import { DashboardCharts } from './DashboardCharts';
import { DASHBOARD_EXPORT_URL, DASHBOARD_QUERY_KEY, fetchDashboard } from './dashboardApi';
import { FlaggedStudents } from './FlaggedStudents';
import { InstrumentBands } from './InstrumentBands';
import { NumbersOnly } from './NumbersOnly';
import { anySuppressed, shownText, smallGroupRuleText } from './shownFigures';
import { UnverifiedAnswers } from './UnverifiedAnswers';
import { type LiveState, useDashboardEvents } from './useDashboardEvents';

const TITLE = msg`Student Wellness Dashboard`;

const COPY_LINK_MESSAGES = {
  copied: msg`Survey template link copied to clipboard!`,
  failed: msg`Failed to copy link to clipboard`,
  noTemplate: msg`No active survey template found.`,
} as const;

class NoTemplateError extends Error {}

/** Spec section 4: the active template's link, or the first template's when none is active. */
function templateToShare(templates: readonly TemplateSummary[]): TemplateSummary | undefined {
  return templates.find((template) => template.used) ?? templates[0];
}

export function DashboardScreen() {
  const { t, i18n } = useLingui();
  return (
    <AdminOnly ability="dashboard" title={i18n._(TITLE)} loadingText={t`Loading dashboard...`}>
      <Dashboard />
    </AdminOnly>
  );
}

function Dashboard() {
  const { t, i18n } = useLingui();
  const queryClient = useQueryClient();
  const { flash, showFlash } = useFlash();
  // The gate above has the user; when the lookup failed, the server decides and admin tools show.
  const role: RoleName = useCurrentUser().data?.role ?? 'admin';
  const dashboard = useQuery({ queryKey: DASHBOARD_QUERY_KEY, queryFn: fetchDashboard });
  const templates = useQuery({
    queryKey: TEMPLATES_QUERY_KEY,
    queryFn: fetchTemplates,
    enabled: can(role, 'templates'),
  });
  const live = useDashboardEvents(dashboard.isSuccess);

  useLoginRedirect(hasErrorCode(dashboard.error, 'UNAUTHENTICATED'));

  if (hasErrorCode(dashboard.error, 'FORBIDDEN'))
    return <AccessRequired title={i18n._(TITLE)} ability="dashboard" />;

  /**
   * Asks the server for the current templates (another tab may have changed them) and copies
   * the link of the one to share. The clipboard item is handed over inside the click.
   */
  async function copySurveyLink() {
    const link = queryClient
      .fetchQuery({ queryKey: TEMPLATES_QUERY_KEY, queryFn: fetchTemplates, staleTime: 0 })
      .catch(() => templates.data ?? [])
      .then((list) => {
        const template = templateToShare(list);
        if (!template) throw new NoTemplateError();
        return surveyLinkUrl(template.hash_link);
      });
    try {
      await copyToClipboard(link);
      showFlash(i18n._(COPY_LINK_MESSAGES.copied));
    } catch (error) {
      const noTemplate = await link.then(
        () => false,
        (reason: unknown) => reason instanceof NoTemplateError,
      );
      if (!noTemplate) console.error('Could not copy the survey link', error);
      showFlash(i18n._(noTemplate ? COPY_LINK_MESSAGES.noTemplate : COPY_LINK_MESSAGES.failed), 'error');
    }
  }

  const hasTemplate = (templates.data?.length ?? 0) > 0;

  return (
    <Page>
      <Flash flash={flash} floating />
      <div className={layout.heading}>
        <div className={styles.titleBlock}>
          <h1>{i18n._(TITLE)}</h1>
          {dashboard.data && <LiveStatus state={live.state} data={dashboard.data} updates={live.updates} />}
        </div>
        <nav className={`${layout.toolbar} ${styles.actions}`} aria-label={t`Dashboard actions`}>
          <ButtonLink variant="ghost" to="/">
            <Trans>Back to Homepage</Trans>
          </ButtonLink>
          {can(role, 'templates') && (
            <ButtonLink variant="secondary" to="/admin/survey-templates/">
              <Trans>Edit Templates</Trans>
            </ButtonLink>
          )}
          {can(role, 'schedule') && (
            <ButtonLink variant="secondary" to="/schedule-survey/">
              <Trans>Schedule Survey</Trans>
            </ButtonLink>
          )}
          {can(role, 'schedule') && (
            <ButtonLink variant="secondary" to="/admin/roster/">
              <Trans>Roster</Trans>
            </ButtonLink>
          )}
          {can(role, 'cases') && (
            <ButtonLink variant="secondary" to="/cases/">
              <Trans>Cases</Trans>
            </ButtonLink>
          )}
          {can(role, 'settings') && (
            <ButtonLink variant="secondary" to="/admin/settings/">
              <Trans>Settings</Trans>
            </ButtonLink>
          )}
          {can(role, 'export') && (
            <a className={buttonClassName({ variant: 'secondary' })} href={DASHBOARD_EXPORT_URL} download>
              <Trans>Export CSV</Trans>
            </a>
          )}
          {can(role, 'templates') && (
            <Button onClick={() => void copySurveyLink()} disabled={!hasTemplate}>
              <Trans>Copy Survey Link</Trans>
            </Button>
          )}
        </nav>
      </div>
      {templates.isSuccess && !hasTemplate && (
        <p className={styles.hint}>
          <Trans>Create a survey template to get a link you can share with students.</Trans>
        </p>
      )}

      {dashboard.isPending ? (
        <LoadingStatus>
          <Trans>Loading dashboard...</Trans>
        </LoadingStatus>
      ) : dashboard.isError ? (
        <LoadError message={t`Failed to load dashboard data`} onRetry={() => void dashboard.refetch()} />
      ) : (
        <DashboardBody
          data={dashboard.data}
          canOpenCases={can(role, 'cases')}
          canShareLink={can(role, 'templates')}
        />
      )}
    </Page>
  );
}

/** What the live line says in each state; offline also says that it keeps trying. */
const LIVE_LABELS: Record<LiveState, MessageDescriptor> = {
  connecting: msg`Connecting to live updates...`,
  live: msg`Live`,
  offline: msg`Offline: live updates cannot be reached. Retrying...`,
};

function LiveStatus({ state, data, updates }: { state: LiveState; data: DashboardData; updates: number }) {
  const { t, i18n } = useLingui();
  // On the institution's clock, like every time staff read.
  const time = formatZonedTime(data.generated_at, useInstitutionTimeZone(), i18n.locale) || null;
  return (
    <p className={styles.liveStatus} data-state={state}>
      <span className={styles.liveDot} aria-hidden="true" />
      <span>{i18n._(LIVE_LABELS[state])}</span>
      {time && (
        <span className={styles.updatedAt}>
          · {state === 'live' ? <Trans>Updated {time}</Trans> : <Trans>Last updated {time}</Trans>}
        </span>
      )}
      {/* Announced only when a new submission refreshes the numbers, not on the first load. */}
      <span className="visually-hidden" role="status">
        {updates > 0
          ? time
            ? t`Dashboard updated with new responses at ${time}.`
            : t`Dashboard updated with new responses at now.`
          : ''}
      </span>
    </p>
  );
}

function DashboardBody({
  data,
  canOpenCases,
  canShareLink,
}: {
  data: DashboardData;
  canOpenCases: boolean;
  /** Whether the Copy Survey Link button is there: only then is the reader told to use it. */
  canShareLink: boolean;
}) {
  const { t } = useLingui();
  const chartsHeadingId = useId();
  return (
    <>
      {anySuppressed(data) && (
        <p className={styles.privacyNote}>{smallGroupRuleText(data.small_group_threshold)}</p>
      )}
      <section aria-label={t`Key figures`}>
        <ul className={styles.metrics}>
          <Metric label={t`Surveys Completed`} value={shownText(data.num_responses)} />
          <Metric label={t`Students At Risk`} value={shownText(data.num_flagged_students)} tone="alert" />
          <Metric label={t`Response Rate`} value={shownText(data.response_rate, (rate) => `${rate}%`)} />
        </ul>
      </section>
      <FollowUpCards figures={data.follow_up} casesLink={canOpenCases ? '/cases/' : undefined} />

      {data.identities_shown ? (
        <>
          <FlaggedStudents
            students={data.flagged_details}
            // Staff shown names are shown every figure: the count is never suppressed for them.
            total={
              isSuppressed(data.num_flagged_students)
                ? data.flagged_details.length
                : data.num_flagged_students
            }
          />
          <UnverifiedAnswers answers={data.unverified_flagged} />
        </>
      ) : (
        <NumbersOnly data={data} />
      )}

      <section className={styles.chartsSection} aria-labelledby={chartsHeadingId}>
        <h2 id={chartsHeadingId} className={styles.sectionTitle}>
          <Trans>Trends</Trans>
        </h2>
        {data.num_responses === 0 ? (
          <div className={styles.noData}>
            <p className={styles.noDataTitle}>
              <Trans>No data available</Trans>
            </p>
            <p>
              {canShareLink ? (
                <Trans>
                  Charts appear once students have answered a survey. Copy the survey link to invite them.
                </Trans>
              ) : (
                <Trans>
                  Charts appear once students have answered a survey. An administrator shares the survey link
                  with students.
                </Trans>
              )}
            </p>
          </div>
        ) : (
          <DashboardCharts data={data} />
        )}
      </section>

      <InstrumentBands />
    </>
  );
}

/**
 * Case work at a glance: open and overdue cases, and how fast flags reached someone. The case
 * figures link to the Cases screen for those who may open it; a viewer sees the numbers only.
 */
function FollowUpCards({
  figures,
  casesLink,
}: {
  figures: DashboardData['follow_up'];
  casesLink: string | undefined;
}) {
  const { t } = useLingui();
  return (
    <section aria-label={t`Follow-up`}>
      <ul className={`${styles.metrics} ${styles.followUp}`}>
        <Metric label={t`Open Cases`} value={shownText(figures.open_cases)} to={casesLink} />
        <Metric
          label={t`Overdue Cases`}
          value={shownText(figures.overdue_cases)}
          tone={isSuppressed(figures.overdue_cases) || figures.overdue_cases > 0 ? 'alert' : undefined}
          to={casesLink}
        />
        <DelayMetric label={t`Submission to Alert Sent`} delays={figures.time_to_alert_sent} />
        <DelayMetric label={t`Submission to Acknowledged`} delays={figures.time_to_acknowledge} />
      </ul>
    </section>
  );
}

/** A delay's median as the figure, and its slow tail (the 90th percentile) on a line beneath. */
function DelayMetric({
  label,
  delays,
}: {
  label: string;
  delays: DashboardData['follow_up']['time_to_alert_sent'];
}) {
  const { t } = useLingui();
  if (delays.count === 0) return <Metric label={label} value={t`No data yet`} small />;
  if (isSuppressed(delays.count) || isSuppressed(delays.median_ms) || isSuppressed(delays.p90_ms)) {
    return <Metric label={label} value={shownText(delays.count)} detail={t`cases`} small />;
  }
  const slowest = formatDuration(delays.p90_ms);
  return (
    <Metric
      label={label}
      value={formatDuration(delays.median_ms)}
      detail={t`median; 90th percentile ${slowest}`}
    />
  );
}

function Metric({
  label,
  value,
  detail,
  tone,
  to,
  small,
}: {
  label: string;
  value: string;
  /** A smaller line beneath the figure. */
  detail?: string;
  tone?: 'alert' | undefined;
  /** Where the figure's details are. */
  to?: string | undefined;
  /** A phrase rather than a number. */
  small?: boolean;
}) {
  return (
    <li className={[styles.metric, tone === 'alert' && styles.metricAlert].filter(Boolean).join(' ')}>
      <span className={styles.metricLabel}>{to ? <Link to={to}>{label}</Link> : label}</span>
      <span className={[styles.metricValue, small && styles.metricPhrase].filter(Boolean).join(' ')}>
        {value}
      </span>
      {detail && <span className={styles.metricDetail}>{detail}</span>}
    </li>
  );
}
