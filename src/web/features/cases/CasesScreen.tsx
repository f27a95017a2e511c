import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { CASE_STATUS_LABELS, CASE_STATUSES, type CaseSummary } from '../../../common/schemas/cases';
import { ButtonLink } from '../../ui/Button';
import { SelectField } from '../../ui/Field';
import { LoadError } from '../../ui/LoadError';
import { Card, Lead, Page } from '../../ui/Page';
import { tableClassName } from '../../ui/Table';
import { AdminOnly, LoadingStatus } from '../admin/AdminOnly';
import layout from '../admin/AdminPage.module.css';
import { ZonedTime } from '../time/ZonedTime';
import { CaseBadges } from './CaseBadges';
import styles from './Cases.module.css';
import { CASES_QUERY_KEY, casePath, fetchCases } from './casesApi';

const TITLE = 'Cases';

type StateFilter = 'open' | 'all' | CaseSummary['status'];
type TierFilter = 'all' | CaseSummary['tier'];
/** Verified cases, or unconfirmed ones (only answers whose sender has not proven the address). */
type QueueFilter = 'all' | 'verified' | 'unproven';

function queueOf(value: string | null): QueueFilter {
  return value === 'verified' || value === 'unproven' ? value : 'all';
}

/**
 * Every flagged student's follow-up: verified cases first, overdue first within them (the
 * server's order), filtered by queue, state, tier and assignee.
 */
export function CasesScreen() {
  return (
    <AdminOnly ability="cases" title={TITLE} loadingText="Loading cases...">
      <Cases />
    </AdminOnly>
  );
}

function Cases() {
  const cases = useQuery({ queryKey: CASES_QUERY_KEY, queryFn: fetchCases });
  const [state, setState] = useState<StateFilter>('open');
  const [tier, setTier] = useState<TierFilter>('all');
  const [assignee, setAssignee] = useState('anyone');
  // The digest of unconfirmed cases links here with ?queue=unproven.
  const [searchParams] = useSearchParams();
  const [queue, setQueue] = useState<QueueFilter>(() => queueOf(searchParams.get('queue')));

  const shown = (cases.data?.cases ?? []).filter(
    (item) =>
      (queue === 'all' || (queue === 'verified') === item.verified) &&
      (state === 'all' || (state === 'open' ? item.status !== 'resolved' : item.status === state)) &&
      (tier === 'all' || item.tier === tier) &&
      (assignee === 'anyone' ||
        (assignee === 'unassigned' ? item.assigned_to === null : String(item.assigned_to?.id) === assignee)),
  );

  return (
    <Page>
      <div className={layout.heading}>
        <div>
          <h1>{TITLE}</h1>
          <Lead>Every flagged check-in opens a case. Overdue cases come first.</Lead>
        </div>
        <nav className={layout.toolbar} aria-label="Cases actions">
          <ButtonLink variant="secondary" to="/dashboard/">
            Dashboard
          </ButtonLink>
        </nav>
      </div>
      {cases.isPending ? (
        <LoadingStatus>Loading cases...</LoadingStatus>
      ) : cases.isError ? (
        <LoadError message="Failed to load cases" onRetry={() => void cases.refetch()} />
      ) : (
        <Card>
          <p className={styles.muted}>
            Open: {cases.data.open_counts.verified} verified, {cases.data.open_counts.unproven} unverified
            (sent through a shared link by someone who has not confirmed the address; verified cases are
            listed first).
          </p>
          <div className={styles.filters}>
            <SelectField
              label="Queue"
              value={queue}
              onChange={(event) => setQueue(queueOf(event.target.value))}
            >
              <option value="all">Verified and unverified</option>
              <option value="verified">Verified</option>
              <option value="unproven">Unverified</option>
            </SelectField>
            <SelectField
              label="State"
              value={state}
              onChange={(event) => setState(event.target.value as StateFilter)}
            >
              <option value="open">Open</option>
              {CASE_STATUSES.map((status) => (
                <option key={status} value={status}>
                  {CASE_STATUS_LABELS[status]}
                </option>
              ))}
              <option value="all">All</option>
            </SelectField>
            <SelectField
              label="Tier"
              value={tier}
              onChange={(event) => setTier(event.target.value as TierFilter)}
            >
              <option value="all">All tiers</option>
              <option value="urgent">Urgent</option>
              <option value="elevated">Elevated</option>
            </SelectField>
            <SelectField
              label="Assigned to"
              value={assignee}
              onChange={(event) => setAssignee(event.target.value)}
            >
              <option value="anyone">Anyone</option>
              <option value="unassigned">Nobody yet</option>
              {cases.data.assignees.map((person) => (
                <option key={person.id} value={String(person.id)}>
                  {person.name}
                </option>
              ))}
            </SelectField>
          </div>
          <p className={styles.muted} role="status">
            {shown.length === 1 ? '1 case' : `${shown.length} cases`}
          </p>
          {shown.length === 0 ? (
            <p className={styles.empty}>No cases match these filters.</p>
          ) : (
            <table className={tableClassName({ cardsBelow: '48rem', labels: 'inline' })}>
              <thead>
                <tr>
                  <th scope="col">Student</th>
                  <th scope="col">Case</th>
                  <th scope="col">Assigned to</th>
                  <th scope="col">Opened</th>
                  <th scope="col">Acknowledge by</th>
                </tr>
              </thead>
              <tbody>
                {shown.map((item) => (
                  <tr key={item.id} className={item.overdue ? styles.overdueRow : undefined}>
                    <th scope="row">
                      <Link to={casePath(item.id)}>{item.student_name}</Link>
                      {item.claimed_name !== null && (
                        <div className={styles.muted}>Name given (unverified): {item.claimed_name}</div>
                      )}
                      <div className={styles.muted}>{item.school_email}</div>
                    </th>
                    <td data-label="Case">
                      <CaseBadges item={item} />
                    </td>
                    <td data-label="Assigned to">{item.assigned_to?.name ?? 'Nobody yet'}</td>
                    <td data-label="Opened">
                      <ZonedTime at={item.opened_at} />
                    </td>
                    <td data-label="Acknowledge by">
                      {item.status === 'new' ? <ZonedTime at={item.acknowledge_by} /> : 'Acknowledged'}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </Card>
      )}
    </Page>
  );
}
