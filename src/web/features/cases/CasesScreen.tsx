import type { MessageDescriptor } from '@lingui/core';
import { msg, plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import {
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
import { CASE_STATUS_LABELS } from './format';

/** The orders offered in the "Sort by" list (the column headings offer the same on wide screens). */
const SORT_CHOICES: { value: string; label: MessageDescriptor }[] = [
  { value: 'priority:asc', label: msg`Follow-up order (overdue first)` },
  { value: 'deadline:asc', label: msg`Deadline, soonest first` },
  { value: 'opened:desc', label: msg`Opened, newest first` },
  { value: 'opened:asc', label: msg`Opened, oldest first` },
  { value: 'student:asc', label: msg`Student, A to Z` },
  { value: 'student:desc', label: msg`Student, Z to A` },
  { value: 'tier:asc', label: msg`Tier, urgent first` },
  { value: 'status:asc', label: msg`State, new first` },
];

/**
 * Every flagged student's follow-up, searched, filtered, sorted and paged on the server. By
 * default verified cases come first and overdue ones first within them.
 */
export function CasesScreen() {
  const { t } = useLingui();
  return (
    <AdminOnly ability="cases" title={t`Cases`} loadingText={t`Loading cases...`}>
      <Cases />
    </AdminOnly>
  );
}

function Cases() {
  const { t } = useLingui();
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
          <h1>
            <Trans>Cases</Trans>
          </h1>
          <Lead>
            <Trans>Every flagged check-in opens a case. Overdue cases come first.</Trans>
          </Lead>
        </div>
        <nav className={layout.toolbar} aria-label={t`Cases actions`}>
          <a className={buttonClassName({ variant: 'secondary' })} href={casesExportUrl(filters)} download>
            <Trans>Export CSV</Trans>
          </a>
          <ButtonLink variant="secondary" to="/dashboard/">
            <Trans>Dashboard</Trans>
          </ButtonLink>
        </nav>
      </div>
      <Card>
        <CaseFiltersForm query={query} assignees={cases.data?.assignees ?? []} onChange={update} />
        {cases.isPending ? (
          <LoadingStatus>
            <Trans>Loading cases...</Trans>
          </LoadingStatus>
        ) : cases.isError ? (
          <LoadError message={t`Failed to load cases`} onRetry={() => void cases.refetch()} />
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
  const { t, i18n } = useLingui();
  const [draft, setDraft] = useState(query.q ?? '');
  const { sort } = query;
  function search(event: FormEvent) {
    event.preventDefault();
    onChange({ q: draft.trim() });
  }
  return (
    <>
      <form className={styles.search} onSubmit={search} aria-label={t`Search cases`}>
        <TextField
          label={t`Search by student name or email`}
          name="q"
          type="search"
          maxLength={200}
          value={draft}
          onChange={(event) => setDraft(event.currentTarget.value)}
        />
        <div className={styles.searchButton}>
          <Button type="submit" variant="secondary">
            <Trans>Search</Trans>
          </Button>
        </div>
      </form>
      <div className={styles.filters}>
        <SelectField
          label={t`Queue`}
          value={query.queue}
          onChange={(event) => onChange({ queue: event.target.value as CaseListQuery['queue'] })}
        >
          <option value="all">{t`Verified and unverified`}</option>
          <option value="verified">{t`Verified`}</option>
          <option value="unproven">{t`Unverified`}</option>
        </SelectField>
        <SelectField
          label={t`State`}
          value={query.status}
          onChange={(event) => onChange({ status: event.target.value as CaseListQuery['status'] })}
        >
          <option value="open">{t`Open`}</option>
          {CASE_STATUSES.map((status) => (
            <option key={status} value={status}>
              {i18n._(CASE_STATUS_LABELS[status])}
            </option>
          ))}
          <option value="all">{t`All`}</option>
        </SelectField>
        <SelectField
          label={t`Tier`}
          value={query.tier}
          onChange={(event) => onChange({ tier: event.target.value as CaseListQuery['tier'] })}
        >
          <option value="all">{t`All tiers`}</option>
          <option value="urgent">{t`Urgent`}</option>
          <option value="elevated">{t`Elevated`}</option>
        </SelectField>
        <SelectField
          label={t`Assigned to`}
          value={query.assigned_to}
          onChange={(event) => onChange({ assigned_to: event.target.value })}
        >
          <option value="anyone">{t`Anyone`}</option>
          <option value="nobody">{t`Nobody yet`}</option>
          {assignees.map((person) => (
            <option key={person.id} value={String(person.id)}>
              {person.name}
            </option>
          ))}
        </SelectField>
        <SelectField
          label={t`Sort by`}
          value={`${query.sort}:${query.dir}`}
          onChange={(event) => {
            const [sort, dir] = event.target.value.split(':') as [CaseSort, 'asc' | 'desc'];
            onChange({ sort, dir });
          }}
        >
          {SORT_CHOICES.some((choice) => choice.value === `${query.sort}:${query.dir}`) ? null : (
            <option value={`${query.sort}:${query.dir}`}>
              {query.dir === 'asc' ? t`${sort}, ascending` : t`${sort}, descending`}
            </option>
          )}
          {SORT_CHOICES.map((choice) => (
            <option key={choice.value} value={choice.value}>
              {i18n._(choice.label)}
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
  const { t, i18n } = useLingui();
  const first = data.total === 0 ? 0 : (data.page - 1) * data.page_size + 1;
  const last = (data.page - 1) * data.page_size + data.cases.length;
  const pages = Math.max(1, Math.ceil(data.total / data.page_size));
  const count = data.total;
  const total = i18n.number(count);
  const { verified, unproven } = data.open_counts;
  const page = data.page;
  const shownFirst = i18n.number(first);
  const shownLast = i18n.number(last);
  const heading = (column: Exclude<CaseSort, 'priority'>, label: string) => (
    <SortHeading column={column} label={label} query={query} onChange={onChange} />
  );
  return (
    <>
      <p className={styles.muted}>
        <Trans>
          Open: {verified} verified, {unproven} unverified (sent through a shared link by someone who has not
          confirmed the address; verified cases are listed first).
        </Trans>
      </p>
      <p className={styles.muted} role="status">
        {data.total > data.cases.length
          ? t`${plural(count, { one: `${total} case, showing ${shownFirst}–${shownLast}`, other: `${total} cases, showing ${shownFirst}–${shownLast}` })}`
          : t`${plural(count, { one: `${total} case`, other: `${total} cases` })}`}
      </p>
      {data.cases.length === 0 ? (
        <p className={styles.empty}>
          {query.q ? (
            <Trans>No cases match this search and these filters.</Trans>
          ) : (
            <Trans>No cases match these filters.</Trans>
          )}
        </p>
      ) : (
        <table className={tableClassName({ cardsBelow: '48rem', labels: 'inline' })}>
          <thead>
            <tr>
              {heading('student', t`Student`)}
              {heading('tier', t`Tier`)}
              {heading('status', t`State`)}
              <th scope="col">
                <Trans>Assigned to</Trans>
              </th>
              {heading('opened', t`Opened`)}
              {heading('deadline', t`Acknowledge by`)}
            </tr>
          </thead>
          <tbody>
            {data.cases.map((item) => {
              const claimedName = item.claimed_name;
              return (
                <tr key={item.id} className={item.overdue ? styles.overdueRow : undefined}>
                  <th scope="row">
                    <Link to={casePath(item.id)}>{item.student_name}</Link>
                    {claimedName !== null && (
                      <div className={styles.muted}>
                        <Trans>Name given (unverified): {claimedName}</Trans>
                      </div>
                    )}
                    <div className={styles.muted}>{item.school_email}</div>
                  </th>
                  <td data-label={t`Tier`}>
                    <CaseBadges item={item} showStatus={false} />
                  </td>
                  <td data-label={t`State`}>{i18n._(CASE_STATUS_LABELS[item.status])}</td>
                  <td data-label={t`Assigned to`}>{item.assigned_to?.name ?? t`Nobody yet`}</td>
                  <td data-label={t`Opened`}>
                    <ZonedTime at={item.opened_at} />
                  </td>
                  <td data-label={t`Acknowledge by`}>
                    {item.status === 'new' ? <ZonedTime at={item.acknowledge_by} /> : t`Acknowledged`}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      {pages > 1 && (
        <nav className={styles.pager} aria-label={t`Case pages`}>
          <p className={styles.pageNote}>
            <Trans>
              Page {page} of {pages}
            </Trans>
          </p>
          {/* aria-disabled, not disabled: the first or last page keeps focus on the button pressed. */}
          <Button
            variant="secondary"
            size="small"
            aria-disabled={data.page <= 1 || undefined}
            onClick={() => data.page > 1 && onChange({ page: data.page - 1 })}
          >
            <Trans>Previous page</Trans>
          </Button>
          <Button
            variant="secondary"
            size="small"
            aria-disabled={data.page >= pages || undefined}
            onClick={() => data.page < pages && onChange({ page: data.page + 1 })}
          >
            <Trans>Next page</Trans>
          </Button>
        </nav>
      )}
    </>
  );
}
