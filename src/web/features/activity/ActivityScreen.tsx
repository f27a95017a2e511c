import { plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
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
  const { t } = useLingui();
  return (
    <AdminOnly ability="audit" title={t`Activity`} loadingText={t`Loading activity...`}>
      <Activity />
    </AdminOnly>
  );
}

function Activity() {
  const { t, i18n } = useLingui();
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
  const timeZone = data?.time_zone;
  const currentPage = data?.page;
  const entries = data?.total ?? 0;
  const total = String(entries);

  return (
    <Page>
      <div className={layout.heading}>
        <div>
          <h1>
            <Trans>Activity</Trans>
          </h1>
          <Lead>
            {timeZone ? (
              <Trans>
                Who read students&apos; details and who changed what, newest first. Times and date filters
                follow the institution&apos;s time zone ({timeZone}).
              </Trans>
            ) : (
              <Trans>
                Who read students&apos; details and who changed what, newest first. Times and date filters
                follow the institution&apos;s time zone.
              </Trans>
            )}
          </Lead>
        </div>
        <nav className={layout.toolbar} aria-label={t`Activity actions`}>
          <a className={buttonClassName({ variant: 'secondary' })} href={activityExportUrl(filters)} download>
            <Trans>Export CSV</Trans>
          </a>
        </nav>
      </div>
      <form className={styles.filters} onSubmit={applyFilters} aria-label={t`Filter activity`}>
        <TextField label={t`Person (email)`} name="actor" type="email" autoComplete="off" />
        <TextField label={t`Student`} name="student" placeholder={t`name or email`} autoComplete="off" />
        <TextField label={t`Action`} name="action" placeholder={t`e.g. case or staff`} autoComplete="off" />
        <TextField label={t`From`} name="from" type="date" />
        <TextField label={t`To`} name="to" type="date" />
        <Button type="submit">
          <Trans>Filter</Trans>
        </Button>
      </form>
      {activity.isPending ? (
        <LoadingStatus>
          <Trans>Loading activity...</Trans>
        </LoadingStatus>
      ) : activity.isError ? (
        <LoadError
          message={
            hasErrorCode(activity.error, 'VALIDATION_FAILED')
              ? t`Those filters cannot be used. Check the dates and the action.`
              : t`Failed to load activity.`
          }
          onRetry={() => void activity.refetch()}
        />
      ) : data && data.entries.length === 0 ? (
        <p className={styles.empty}>
          <Trans>No activity matches these filters.</Trans>
        </p>
      ) : (
        data && (
          <>
            <div className={styles.tableWrap}>
              <table className={tableClassName({ cardsBelow: '40rem', labels: 'inline' }, styles.table)}>
                <caption className="visually-hidden">
                  <Trans>Activity, newest first</Trans>
                </caption>
                <thead>
                  <tr>
                    <th scope="col">
                      <Trans>Time</Trans>
                    </th>
                    <th scope="col">
                      <Trans>Person</Trans>
                    </th>
                    <th scope="col">
                      <Trans>Action</Trans>
                    </th>
                    <th scope="col">
                      <Trans>Details</Trans>
                    </th>
                    <th scope="col">
                      <Trans>Address</Trans>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {data.entries.map((entry) => (
                    <tr key={entry.id}>
                      <td data-label={t`Time`} className={styles.time}>
                        {formatZonedDateTime(entry.at, data.time_zone, i18n.locale)}
                      </td>
                      <td data-label={t`Person`}>
                        {entry.actor_name ? (
                          <>
                            <span>{entry.actor_name}</span>{' '}
                            <span className={styles.email}>{actorLabel(entry)}</span>
                          </>
                        ) : (
                          actorLabel(entry)
                        )}
                      </td>
                      <td data-label={t`Action`}>
                        <ActionName action={entry.action} />
                      </td>
                      <td data-label={t`Details`}>{describe(entry) || '—'}</td>
                      <td data-label={t`Address`}>{entry.address ?? ''}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            <div className={styles.pager}>
              <p role="status">
                {t`Page ${currentPage} of ${pages} · ${plural(entries, { one: `${total} entry`, other: `${total} entries` })}`}
              </p>
              <div className={layout.toolbar}>
                <Button
                  variant="secondary"
                  disabled={page <= 1}
                  onClick={() => setPage((current) => current - 1)}
                >
                  <Trans>Newer</Trans>
                </Button>
                <Button
                  variant="secondary"
                  disabled={page >= pages}
                  onClick={() => setPage((current) => current + 1)}
                >
                  <Trans>Older</Trans>
                </Button>
              </div>
            </div>
          </>
        )
      )}
    </Page>
  );
}
