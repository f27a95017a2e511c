import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import type { AuditEntry, AuditFilters } from '../../../common/schemas/audit';
import { formatZonedDateTime } from '../../../common/zoned-format';
import { hasErrorCode } from '../../api';
import { Button, buttonClassName } from '../../ui/Button';
import { TextField } from '../../ui/Field';
import { LoadError } from '../../ui/LoadError';
import { Lead, Page } from '../../ui/Page';
import { tableClassName } from '../../ui/Table';
import { AdminOnly, LoadingStatus, useLoginRedirect } from '../admin/AdminOnly';
import layout from '../admin/AdminPage.module.css';
import styles from './Activity.module.css';
import { actionLabel, actorLabel } from './actionLabels';
import { activityExportUrl, activityQueryKey, fetchActivity } from './activityApi';

const TITLE = 'Activity';

/** What an entry is about, in words: its subject (by name, beside its id) and the parts of its detail worth reading. */
function describe(entry: AuditEntry): string {
  const id = entry.subject_type ? `${entry.subject_type} ${entry.subject_id ?? ''}`.trim() : '';
  const subject = entry.subject_name ? `${entry.subject_name} (${id})` : id;
  const detail = entry.detail
    ? Object.entries(entry.detail)
        .map(([key, value]) => `${key}: ${typeof value === 'string' ? value : JSON.stringify(value)}`)
        .join(', ')
    : '';
  return [subject, detail].filter(Boolean).join(' · ');
}

/** The action in words, with its code (what the Action filter takes) beside it. */
function ActionName({ action }: { action: string }) {
  const label = actionLabel(action);
  if (!label) return <span className={styles.action}>{action}</span>;
  return (
    <>
      <span>{label}</span> <span className={styles.action}>{action}</span>
    </>
  );
}

export function ActivityScreen() {
  return (
    <AdminOnly ability="audit" title={TITLE} loadingText="Loading activity...">
      <Activity />
    </AdminOnly>
  );
}

function Activity() {
  const [filters, setFilters] = useState<AuditFilters>({});
  const [page, setPage] = useState(1);
  const query = { ...filters, page };
  const activity = useQuery({
    queryKey: activityQueryKey(query),
    queryFn: () => fetchActivity(query),
    placeholderData: keepPreviousData,
  });
  useLoginRedirect(hasErrorCode(activity.error, 'UNAUTHENTICATED'));

  function applyFilters(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const text = (name: string) => {
      const value = String(form.get(name) ?? '').trim();
      return value === '' ? undefined : value;
    };
    setFilters({
      actor: text('actor'),
      student: text('student'),
      action: text('action'),
      from: text('from'),
      to: text('to'),
    });
    setPage(1);
  }

  const data = activity.data;
  const pages = data ? Math.max(1, Math.ceil(data.total / data.page_size)) : 1;

  return (
    <Page>
      <div className={layout.heading}>
        <div>
          <h1>{TITLE}</h1>
          <Lead>
            Who read students&apos; details and who changed what, newest first. Times and date filters follow
            the institution&apos;s time zone{data ? ` (${data.time_zone})` : ''}.
          </Lead>
        </div>
        <nav className={layout.toolbar} aria-label="Activity actions">
          <a className={buttonClassName({ variant: 'secondary' })} href={activityExportUrl(filters)} download>
            Export CSV
          </a>
        </nav>
      </div>
      <form className={styles.filters} onSubmit={applyFilters} aria-label="Filter activity">
        <TextField label="Person (email)" name="actor" type="email" autoComplete="off" />
        <TextField label="Student" name="student" placeholder="name or email" autoComplete="off" />
        <TextField label="Action" name="action" placeholder="e.g. case or staff" autoComplete="off" />
        <TextField label="From" name="from" type="date" />
        <TextField label="To" name="to" type="date" />
        <Button type="submit">Filter</Button>
      </form>
      {activity.isPending ? (
        <LoadingStatus>Loading activity...</LoadingStatus>
      ) : activity.isError ? (
        <LoadError
          message={
            hasErrorCode(activity.error, 'VALIDATION_FAILED')
              ? 'Those filters cannot be used. Check the dates and the action.'
              : 'Failed to load activity.'
          }
          onRetry={() => void activity.refetch()}
        />
      ) : data && data.entries.length === 0 ? (
        <p className={styles.empty}>No activity matches these filters.</p>
      ) : (
        data && (
          <>
            <div className={styles.tableWrap}>
              <table className={tableClassName({ cardsBelow: '40rem', labels: 'inline' }, styles.table)}>
                <caption className="visually-hidden">Activity, newest first</caption>
                <thead>
                  <tr>
                    <th scope="col">Time</th>
                    <th scope="col">Person</th>
                    <th scope="col">Action</th>
                    <th scope="col">Details</th>
                    <th scope="col">Address</th>
                  </tr>
                </thead>
                <tbody>
                  {data.entries.map((entry) => (
                    <tr key={entry.id}>
                      <td data-label="Time" className={styles.time}>
                        {formatZonedDateTime(entry.at, data.time_zone)}
                      </td>
                      <td data-label="Person">
                        {entry.actor_name ? (
                          <>
                            <span>{entry.actor_name}</span>{' '}
                            <span className={styles.email}>{actorLabel(entry)}</span>
                          </>
                        ) : (
                          actorLabel(entry)
                        )}
                      </td>
                      <td data-label="Action">
                        <ActionName action={entry.action} />
                      </td>
                      <td data-label="Details">{describe(entry) || '—'}</td>
                      <td data-label="Address">{entry.address ?? ''}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            <div className={styles.pager}>
              <p role="status">
                Page {data.page} of {pages} · {data.total} {data.total === 1 ? 'entry' : 'entries'}
              </p>
              <div className={layout.toolbar}>
                <Button
                  variant="secondary"
                  disabled={page <= 1}
                  onClick={() => setPage((current) => current - 1)}
                >
                  Newer
                </Button>
                <Button
                  variant="secondary"
                  disabled={page >= pages}
                  onClick={() => setPage((current) => current + 1)}
                >
                  Older
                </Button>
              </div>
            </div>
          </>
        )
      )}
    </Page>
  );
}
