import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import type { RosterImportResponse, RosterStudent } from '../../../common/schemas/roster';
import { errorMessage } from '../../api';
import { Button, ButtonLink } from '../../ui/Button';
import { ChoiceGroup, SelectField, TextField } from '../../ui/Field';
import { LoadError } from '../../ui/LoadError';
import { Card, Lead, Page } from '../../ui/Page';
import { tableClassName } from '../../ui/Table';
import { AdminOnly, LoadingStatus, useLoginRedirect } from '../admin/AdminOnly';
import { isUnauthenticated } from '../templates/templatesApi';
import { useZonedFormat } from '../time/ZonedTime';
import styles from './Roster.module.css';
import { fetchRoster, ROSTER_QUERY_KEY, type RosterSearch, setStudentLeft, uploadRoster } from './rosterApi';

/** Both roster tables: five columns do not fit a phone, so one card per student there. */
const ROSTER_TABLE = tableClassName({ cardsBelow: '40rem', labels: 'above' }, styles.table);

const TITLE = msg`Roster`;
const PAGE_SIZE = 50;

export function RosterScreen() {
  const { t, i18n } = useLingui();
  return (
    <AdminOnly ability="schedule" title={i18n._(TITLE)} loadingText={t`Loading roster...`}>
      <Page>
        <div className={styles.header}>
          <h1>{i18n._(TITLE)}</h1>
          <div className={styles.actions}>
            <ButtonLink variant="ghost" to="/dashboard/">
              <Trans>Back to Dashboard</Trans>
            </ButtonLink>
            <ButtonLink variant="secondary" to="/schedule-survey/">
              <Trans>Schedule Survey</Trans>
            </ButtonLink>
            <ButtonLink variant="secondary" to="/admin/campaigns/">
              <Trans>Campaigns</Trans>
            </ButtonLink>
          </div>
        </div>
        <Lead>
          <Trans>
            The students your institution surveys, from the registrar&apos;s list. The response rate counts
            them once a roster is here.
          </Trans>
        </Lead>
        <RosterUpload />
        <RosterList />
      </Page>
    </AdminOnly>
  );
}

/** What a re-upload does with the students it no longer lists. */
const MISSING_CHOICES = [
  { value: 'keep', label: msg`Keep them on the roster` },
  { value: 'leave', label: msg`Mark them as left: no more invitations, and out of the response rate` },
] as const;

function RosterUpload() {
  const { t, i18n } = useLingui();
  const queryClient = useQueryClient();
  const [file, setFile] = useState<File | null>(null);
  const [result, setResult] = useState<RosterImportResponse | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [missing, setMissing] = useState<'keep' | 'leave'>('keep');
  const upload = useMutation({
    mutationFn: (chosen: File) => uploadRoster(chosen, missing),
    onSuccess: (answer) => {
      setResult(answer);
      setFailure(null);
      void queryClient.invalidateQueries({ queryKey: ROSTER_QUERY_KEY });
    },
    onError: (error) => {
      setResult(null);
      setFailure(errorMessage(error, t`The roster could not be imported. Please try again.`));
    },
  });

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!file || upload.isPending) return;
    upload.mutate(file);
  }

  return (
    <Card className={styles.card}>
      <h2>
        <Trans>Import the registrar&apos;s file</Trans>
      </h2>
      <form className={styles.uploadForm} onSubmit={submit}>
        <TextField
          label={t`Roster file (CSV)`}
          hint={t`A header line naming the columns "name", "email" and optionally "group", then one student per line. Uploading again updates names and groups; nobody is listed twice.`}
          name="roster"
          type="file"
          accept=".csv,text/csv"
          required
          onChange={(event) => setFile(event.currentTarget.files?.[0] ?? null)}
        />
        <ChoiceGroup
          legend={t`Students missing from this file`}
          name="missing"
          choices={MISSING_CHOICES.map((choice) => ({ value: choice.value, label: i18n._(choice.label) }))}
          value={missing}
          onChange={(value) => setMissing(value === 'leave' ? 'leave' : 'keep')}
        />
        <div>
          <Button type="submit" busy={upload.isPending}>
            {upload.isPending ? t`Importing...` : t`Import roster`}
          </Button>
        </div>
      </form>
      <div role="status" className={styles.outcome}>
        {result && <ImportSummary result={result} />}
      </div>
      {failure && (
        <p role="alert" className={styles.failure}>
          {failure}
        </p>
      )}
    </Card>
  );
}

function ImportSummary({ result }: { result: RosterImportResponse }) {
  const { t, i18n } = useLingui();
  const students = (count: number) => {
    const number = count.toLocaleString(i18n.locale);
    return count === 1 ? t`${number} student` : t`${number} students`;
  };
  const added = students(result.imported);
  const updated = students(result.updated);
  const left = students(result.left);
  const failed = result.errors.length.toLocaleString(i18n.locale);
  return (
    <>
      <p className={styles.success}>
        {t`Imported: ${added} added, ${updated} updated.`}
        {result.left > 0 && ` ${t`${left} marked as left.`}`}
        {result.errors.length > 0 &&
          ` ${result.errors.length === 1 ? t`${failed} line was not imported.` : t`${failed} lines were not imported.`}`}
      </p>
      {result.errors.length > 0 && (
        <table className={ROSTER_TABLE}>
          <caption className={styles.caption}>
            <Trans>Lines not imported</Trans>
          </caption>
          <thead>
            <tr>
              <th scope="col">
                <Trans>Line</Trans>
              </th>
              <th scope="col">
                <Trans>Reason</Trans>
              </th>
            </tr>
          </thead>
          <tbody>
            {result.errors.slice(0, 200).map((error) => (
              <tr key={error.line}>
                <td data-label={t`Line`}>{error.line}</td>
                <td data-label={t`Reason`} className={styles.wrap}>
                  {error.message}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}

function RosterList() {
  const { t, i18n } = useLingui();
  const searchId = useId();
  const [draft, setDraft] = useState('');
  const [search, setSearch] = useState<RosterSearch>({ q: '', group: '', offset: 0, limit: PAGE_SIZE });
  const roster = useQuery({
    queryKey: [...ROSTER_QUERY_KEY, search],
    queryFn: () => fetchRoster(search),
    placeholderData: keepPreviousData,
  });
  useLoginRedirect(isUnauthenticated(roster.error));

  function find(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setSearch((current) => ({ ...current, q: draft, offset: 0 }));
  }

  const page = roster.data;
  const first = page && page.total > 0 ? page.offset + 1 : 0;
  const last = page ? page.offset + page.students.length : 0;
  const firstShown = first.toLocaleString(i18n.locale);
  const lastShown = last.toLocaleString(i18n.locale);
  const total = page?.total.toLocaleString(i18n.locale);
  return (
    <Card className={styles.card}>
      <h2 id={searchId}>
        <Trans>Students</Trans>
      </h2>
      <form className={styles.filters} onSubmit={find} aria-labelledby={searchId}>
        <TextField
          label={t`Search by name or email`}
          name="q"
          type="search"
          value={draft}
          onChange={(event) => setDraft(event.currentTarget.value)}
        />
        <SelectField
          label={t`Group`}
          name="group"
          value={search.group}
          onChange={(event) => {
            const group = event.currentTarget.value;
            setSearch((current) => ({ ...current, group, offset: 0 }));
          }}
        >
          <option value="">{t`All groups`}</option>
          {page?.groups.map((group) => (
            <option key={group} value={group}>
              {group}
            </option>
          ))}
        </SelectField>
        <div className={styles.searchButton}>
          <Button type="submit" variant="secondary">
            <Trans>Search</Trans>
          </Button>
        </div>
      </form>

      {roster.isPending && (
        <LoadingStatus>
          <Trans>Loading students...</Trans>
        </LoadingStatus>
      )}
      {roster.isError && !isUnauthenticated(roster.error) && (
        <LoadError
          message={errorMessage(roster.error, t`The roster could not be loaded.`)}
          onRetry={() => void roster.refetch()}
        />
      )}
      {page && page.total === 0 && (
        <p className={styles.empty}>
          {search.q || search.group
            ? t`No students match this search.`
            : t`No roster yet. Import the registrar’s CSV file above.`}
        </p>
      )}
      {page && page.total > 0 && (
        <>
          <StudentTable students={page.students} />
          <nav className={styles.pager} aria-label={t`Roster pages`}>
            <p className={styles.pageNote} role="status">
              <Trans>
                Showing {firstShown}&ndash;{lastShown} of {total}
              </Trans>
            </p>
            <Button
              variant="secondary"
              size="small"
              disabled={page.offset === 0}
              onClick={() =>
                setSearch((current) => ({ ...current, offset: Math.max(0, current.offset - PAGE_SIZE) }))
              }
            >
              <Trans>Previous page</Trans>
            </Button>
            <Button
              variant="secondary"
              size="small"
              disabled={last >= page.total}
              onClick={() => setSearch((current) => ({ ...current, offset: current.offset + PAGE_SIZE }))}
            >
              <Trans>Next page</Trans>
            </Button>
          </nav>
        </>
      )}
    </Card>
  );
}

function StudentTable({ students }: { students: RosterStudent[] }) {
  const { t } = useLingui();
  const formatTime = useZonedFormat();
  const dateText = (at: string | null) => (at ? formatTime(at) : t`Never`);
  const queryClient = useQueryClient();
  const [outcome, setOutcome] = useState<string | null>(null);
  const mark = useMutation({
    mutationFn: ({ id, left }: { id: number; left: boolean }) => setStudentLeft(id, left),
    onSuccess: (answer) => setOutcome(answer.message),
    onError: (error) =>
      setOutcome(errorMessage(error, t`The student could not be changed. Please try again.`)),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: ROSTER_QUERY_KEY }),
  });
  return (
    <>
      <p role="status" className={styles.outcome}>
        {outcome}
      </p>
      <table className={ROSTER_TABLE}>
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
              <Trans>Last invited</Trans>
            </th>
            <th scope="col">
              <Trans>Last answered</Trans>
            </th>
            <th scope="col">
              <Trans>On the roster</Trans>
            </th>
          </tr>
        </thead>
        <tbody>
          {students.map((student) => (
            <tr key={student.email}>
              <th scope="row" className={styles.wrap}>
                {student.name}
              </th>
              <td data-label={t`Email`} className={styles.wrap}>
                {student.email}
              </td>
              <td data-label={t`Group`}>{student.group ?? t`No group`}</td>
              <td data-label={t`Last invited`}>{dateText(student.last_invited_at)}</td>
              <td data-label={t`Last answered`}>{dateText(student.last_answered_at)}</td>
              <td data-label={t`On the roster`}>
                {student.left_at ? `${t`Left ${dateText(student.left_at)}`} ` : ''}
                <Button
                  size="small"
                  variant="secondary"
                  busy={mark.isPending && mark.variables?.id === student.id}
                  onClick={() => mark.mutate({ id: student.id, left: student.left_at === null })}
                  aria-label={
                    student.left_at === null
                      ? t`Mark as left: ${student.name}`
                      : t`Back on the roster: ${student.name}`
                  }
                >
                  {student.left_at === null ? t`Mark as left` : t`Back on the roster`}
                </Button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}
