import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import {
  CASE_STATUS_LABELS,
  CASE_STATUSES,
  type CaseListQuery,
  type CaseListResponse,
  type CaseSort,
} from '../../../common/schemas/cases';
import { Button, ButtonLink, buttonClassName } from '../../ui/Button';
import { SelectField, TextField } from '../../ui/Field';
import { LoadError } from '../../ui/LoadError';
import { Card, Lead, Page } from '../../ui/Page';
import { tableClassName } from '../../ui/Table';
import { AdminOnly, LoadingStatus } from '../admin/AdminOnly';
import layout from '../admin/AdminPage.module.css';
import { ZonedTime } from '../time/ZonedTime';
import { CaseBadges } from './CaseBadges';
import styles from './Cases.module.css';
import { caseListQueryOf, paramsOf } from './caseListParams';
import { casePath, casesExportUrl, casesListQueryKey, fetchCases } from './casesApi';

const TITLE = 'Cases';

/** The orders offered in the "Sort by" list (the column headings offer the same on wide screens). */
const SORT_CHOICES: { value: string; label: string }[] = [
  { value: 'priority:asc', label: 'Follow-up order (overdue first)' },
  { value: 'deadline:asc', label: 'Deadline, soonest first' },
  { value: 'opened:desc', label: 'Opened, newest first' },
  { value: 'opened:asc', label: 'Opened, oldest first' },
  { value: 'student:asc', label: 'Student, A to Z' },
  { value: 'student:desc', label: 'Student, Z to A' },
  { value: 'tier:asc', label: 'Tier, urgent first' },
  { value: 'status:asc', label: 'State, new first' },
];

/**
 * Every flagged student's follow-up, searched, filtered, sorted and paged on the server. By
 * default verified cases come first and overdue ones first within them.
 */
export function CasesScreen() {
  return (
    <AdminOnly ability="cases" title={TITLE} loadingText="Loading cases...">
      <Cases />
    </AdminOnly>
  );
}

function Cases() {
  const [searchParams, setSearchParams] = useSearchParams();
  const query = caseListQueryOf(searchParams);
  const cases = useQuery({
    queryKey: casesListQueryKey(query),
    queryFn: () => fetchCases(query),
    placeholderData: keepPreviousData,
  });
  /** A change of filter or order starts again at the first page; paging keeps the rest. */
  const update = (change: Partial<CaseListQuery>) => {
    const { q: _previousSearch, ...rest } = query;
    const next: CaseListQuery = { ...rest, page: 1, ...(query.q ? { q: query.q } : {}), ...change };
    if (!next.q) delete next.q;
    setSearchParams(paramsOf(next));
  };
  const { page_size: _pageSize, page: _page, ...filters } = query;

  return (
    <Page>
      <div className={layout.heading}>
        <div>
          <h1>{TITLE}</h1>
          <Lead>Every flagged check-in opens a case. Overdue cases come first.</Lead>
        </div>
        <nav className={layout.toolbar} aria-label="Cases actions">
          <a className={buttonClassName({ variant: 'secondary' })} href={casesExportUrl(filters)} download>
            Export CSV
          </a>
          <ButtonLink variant="secondary" to="/dashboard/">
            Dashboard
          </ButtonLink>
        </nav>
      </div>
      <Card>
        <CaseFiltersForm query={query} assignees={cases.data?.assignees ?? []} onChange={update} />
        {cases.isPending ? (
          <LoadingStatus>Loading cases...</LoadingStatus>
        ) : cases.isError ? (
          <LoadError message="Failed to load cases" onRetry={() => void cases.refetch()} />
        ) : (
          <CaseList data={cases.data} query={query} onChange={update} />
        )}
      </Card>
    </Page>
  );
}

function CaseFiltersForm({
  query,
  assignees,
  onChange,
}: {
  query: CaseListQuery;
  assignees: CaseListResponse['assignees'];
  onChange: (change: Partial<CaseListQuery>) => void;
}) {
  const [draft, setDraft] = useState(query.q ?? '');
  function search(event: FormEvent) {
    event.preventDefault();
    onChange({ q: draft.trim() });
  }
  return (
    <>
      <form className={styles.search} onSubmit={search} aria-label="Search cases">
        <TextField
          label="Search by student name or email"
          name="q"
          type="search"
          maxLength={200}
          value={draft}
          onChange={(event) => setDraft(event.currentTarget.value)}
        />
        <div className={styles.searchButton}>
          <Button type="submit" variant="secondary">
            Search
          </Button>
        </div>
      </form>
      <div className={styles.filters}>
        <SelectField
          label="Queue"
          value={query.queue}
          onChange={(event) => onChange({ queue: event.target.value as CaseListQuery['queue'] })}
        >
          <option value="all">Verified and unverified</option>
          <option value="verified">Verified</option>
          <option value="unproven">Unverified</option>
        </SelectField>
        <SelectField
          label="State"
          value={query.status}
          onChange={(event) => onChange({ status: event.target.value as CaseListQuery['status'] })}
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
          value={query.tier}
          onChange={(event) => onChange({ tier: event.target.value as CaseListQuery['tier'] })}
        >
          <option value="all">All tiers</option>
          <option value="urgent">Urgent</option>
          <option value="elevated">Elevated</option>
        </SelectField>
        <SelectField
          label="Assigned to"
          value={query.assigned_to}
          onChange={(event) => onChange({ assigned_to: event.target.value })}
        >
          <option value="anyone">Anyone</option>
          <option value="nobody">Nobody yet</option>
          {assignees.map((person) => (
            <option key={person.id} value={String(person.id)}>
              {person.name}
            </option>
          ))}
        </SelectField>
        <SelectField
          label="Sort by"
          value={`${query.sort}:${query.dir}`}
          onChange={(event) => {
            const [sort, dir] = event.target.value.split(':') as [CaseSort, 'asc' | 'desc'];
            onChange({ sort, dir });
          }}
        >
          {SORT_CHOICES.some((choice) => choice.value === `${query.sort}:${query.dir}`) ? null : (
            <option value={`${query.sort}:${query.dir}`}>
              {query.sort}, {query.dir === 'asc' ? 'ascending' : 'descending'}
            </option>
          )}
          {SORT_CHOICES.map((choice) => (
            <option key={choice.value} value={choice.value}>
              {choice.label}
            </option>
          ))}
        </SelectField>
      </div>
    </>
  );
}

/** A column heading that sorts by its column: ascending first, then the other way. */
function SortHeading({
  column,
  label,
  query,
  onChange,
}: {
  column: Exclude<CaseSort, 'priority'>;
  label: string;
  query: CaseListQuery;
  onChange: (change: Partial<CaseListQuery>) => void;
}) {
  const active = query.sort === column;
  const sorted = active ? (query.dir === 'asc' ? 'ascending' : 'descending') : undefined;
  return (
    <th scope="col" aria-sort={sorted}>
      <button
        type="button"
        className={styles.sortButton}
        onClick={() => onChange({ sort: column, dir: active && query.dir === 'asc' ? 'desc' : 'asc' })}
      >
        {label}
        <span aria-hidden="true" className={styles.sortMark}>
          {active ? (query.dir === 'asc' ? ' ▲' : ' ▼') : ''}
        </span>
      </button>
    </th>
  );
}

function CaseList({
  data,
  query,
  onChange,
}: {
  data: CaseListResponse;
  query: CaseListQuery;
  onChange: (change: Partial<CaseListQuery>) => void;
}) {
  const first = data.total === 0 ? 0 : (data.page - 1) * data.page_size + 1;
  const last = (data.page - 1) * data.page_size + data.cases.length;
  const pages = Math.max(1, Math.ceil(data.total / data.page_size));
  const heading = (column: Exclude<CaseSort, 'priority'>, label: string) => (
    <SortHeading column={column} label={label} query={query} onChange={onChange} />
  );
  return (
    <>
      <p className={styles.muted}>
        Open: {data.open_counts.verified} verified, {data.open_counts.unproven} unverified (sent through a
        shared link by someone who has not confirmed the address; verified cases are listed first).
      </p>
      <p className={styles.muted} role="status">
        {data.total === 1 ? '1 case' : `${data.total.toLocaleString()} cases`}
        {data.total > data.cases.length && `, showing ${first.toLocaleString()}–${last.toLocaleString()}`}
      </p>
      {data.cases.length === 0 ? (
        <p className={styles.empty}>
          {query.q ? 'No cases match this search and these filters.' : 'No cases match these filters.'}
        </p>
      ) : (
        <table className={tableClassName({ cardsBelow: '48rem', labels: 'inline' })}>
          <thead>
            <tr>
              {heading('student', 'Student')}
              {heading('tier', 'Tier')}
              {heading('status', 'State')}
              <th scope="col">Assigned to</th>
              {heading('opened', 'Opened')}
              {heading('deadline', 'Acknowledge by')}
            </tr>
          </thead>
          <tbody>
            {data.cases.map((item) => (
              <tr key={item.id} className={item.overdue ? styles.overdueRow : undefined}>
                <th scope="row">
                  <Link to={casePath(item.id)}>{item.student_name}</Link>
                  {item.claimed_name !== null && (
                    <div className={styles.muted}>Name given (unverified): {item.claimed_name}</div>
                  )}
                  <div className={styles.muted}>{item.school_email}</div>
                </th>
                <td data-label="Tier">
                  <CaseBadges item={item} showStatus={false} />
                </td>
                <td data-label="State">{CASE_STATUS_LABELS[item.status]}</td>
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
      {pages > 1 && (
        <nav className={styles.pager} aria-label="Case pages">
          <p className={styles.pageNote}>
            Page {data.page} of {pages}
          </p>
          {/* aria-disabled, not disabled: the first or last page keeps focus on the button pressed. */}
          <Button
            variant="secondary"
            size="small"
            aria-disabled={data.page <= 1 || undefined}
            onClick={() => data.page > 1 && onChange({ page: data.page - 1 })}
          >
            Previous page
          </Button>
          <Button
            variant="secondary"
            size="small"
            aria-disabled={data.page >= pages || undefined}
            onClick={() => data.page < pages && onChange({ page: data.page + 1 })}
          >
            Next page
          </Button>
        </nav>
      )}
    </>
  );
}
