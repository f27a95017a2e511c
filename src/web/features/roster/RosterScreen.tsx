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

const TITLE = 'Roster';
const PAGE_SIZE = 50;

export function RosterScreen() {
  return (
    <AdminOnly ability="schedule" title={TITLE} loadingText="Loading roster...">
      <Page>
        <div className={styles.header}>
          <h1>{TITLE}</h1>
          <div className={styles.actions}>
            <ButtonLink variant="ghost" to="/dashboard/">
              Back to Dashboard
            </ButtonLink>
            <ButtonLink variant="secondary" to="/schedule-survey/">
              Schedule Survey
            </ButtonLink>
            <ButtonLink variant="secondary" to="/admin/campaigns/">
              Campaigns
            </ButtonLink>
          </div>
        </div>
        <Lead>
          The students your institution surveys, from the registrar&apos;s list. The response rate counts them
          once a roster is here.
        </Lead>
        <RosterUpload />
        <RosterList />
      </Page>
    </AdminOnly>
  );
}

/** What a re-upload does with the students it no longer lists. */
const MISSING_CHOICES = [
  { value: 'keep', label: 'Keep them on the roster' },
  { value: 'leave', label: 'Mark them as left: no more invitations, and out of the response rate' },
] as const;

function RosterUpload() {
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
      setFailure(errorMessage(error, 'The roster could not be imported. Please try again.'));
    },
  });

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!file || upload.isPending) return;
    upload.mutate(file);
  }

  return (
    <Card className={styles.card}>
      <h2>Import the registrar&apos;s file</h2>
      <form className={styles.uploadForm} onSubmit={submit}>
        <TextField
          label="Roster file (CSV)"
          hint='A header line naming the columns "name", "email" and optionally "group", then one student per line. Uploading again updates names and groups; nobody is listed twice.'
          name="roster"
          type="file"
          accept=".csv,text/csv"
          required
          onChange={(event) => setFile(event.currentTarget.files?.[0] ?? null)}
        />
        <ChoiceGroup
          legend="Students missing from this file"
          name="missing"
          choices={MISSING_CHOICES}
          value={missing}
          onChange={(value) => setMissing(value === 'leave' ? 'leave' : 'keep')}
        />
        <div>
          <Button type="submit" busy={upload.isPending}>
            {upload.isPending ? 'Importing...' : 'Import roster'}
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
  const students = (count: number) => `${count.toLocaleString()} student${count === 1 ? '' : 's'}`;
  return (
    <>
      <p className={styles.success}>
        Imported: {students(result.imported)} added, {students(result.updated)} updated.
        {result.left > 0 && ` ${students(result.left)} marked as left.`}
        {result.errors.length > 0 &&
          ` ${result.errors.length.toLocaleString()} line${result.errors.length === 1 ? ' was' : 's were'} not imported.`}
      </p>
      {result.errors.length > 0 && (
        <table className={ROSTER_TABLE}>
          <caption className={styles.caption}>Lines not imported</caption>
          <thead>
            <tr>
              <th scope="col">Line</th>
              <th scope="col">Reason</th>
            </tr>
          </thead>
          <tbody>
            {result.errors.slice(0, 200).map((error) => (
              <tr key={error.line}>
                <td data-label="Line">{error.line}</td>
                <td data-label="Reason" className={styles.wrap}>
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
  return (
    <Card className={styles.card}>
      <h2 id={searchId}>Students</h2>
      <form className={styles.filters} onSubmit={find} aria-labelledby={searchId}>
        <TextField
          label="Search by name or email"
          name="q"
          type="search"
          value={draft}
          onChange={(event) => setDraft(event.currentTarget.value)}
        />
        <SelectField
          label="Group"
          name="group"
          value={search.group}
          onChange={(event) => {
            const group = event.currentTarget.value;
            setSearch((current) => ({ ...current, group, offset: 0 }));
          }}
        >
          <option value="">All groups</option>
          {page?.groups.map((group) => (
            <option key={group} value={group}>
              {group}
            </option>
          ))}
        </SelectField>
        <div className={styles.searchButton}>
          <Button type="submit" variant="secondary">
            Search
          </Button>
        </div>
      </form>

      {roster.isPending && <LoadingStatus>Loading students...</LoadingStatus>}
      {roster.isError && !isUnauthenticated(roster.error) && (
        <LoadError
          message={errorMessage(roster.error, 'The roster could not be loaded.')}
          onRetry={() => void roster.refetch()}
        />
      )}
      {page && page.total === 0 && (
        <p className={styles.empty}>
          {search.q || search.group
            ? 'No students match this search.'
            : 'No roster yet. Import the registrar\u2019s CSV file above.'}
        </p>
      )}
      {page && page.total > 0 && (
        <>
          <StudentTable students={page.students} />
          <nav className={styles.pager} aria-label="Roster pages">
            <p className={styles.pageNote} role="status">
              Showing {first.toLocaleString()}&ndash;{last.toLocaleString()} of {page.total.toLocaleString()}
            </p>
            <Button
              variant="secondary"
              size="small"
              disabled={page.offset === 0}
              onClick={() =>
                setSearch((current) => ({ ...current, offset: Math.max(0, current.offset - PAGE_SIZE) }))
              }
            >
              Previous page
            </Button>
            <Button
              variant="secondary"
              size="small"
              disabled={last >= page.total}
              onClick={() => setSearch((current) => ({ ...current, offset: current.offset + PAGE_SIZE }))}
            >
              Next page
            </Button>
          </nav>
        </>
      )}
    </Card>
  );
}

function StudentTable({ students }: { students: RosterStudent[] }) {
  const formatTime = useZonedFormat();
  const dateText = (at: string | null) => (at ? formatTime(at) : 'Never');
  const queryClient = useQueryClient();
  const [outcome, setOutcome] = useState<string | null>(null);
  const mark = useMutation({
    mutationFn: ({ id, left }: { id: number; left: boolean }) => setStudentLeft(id, left),
    onSuccess: (answer) => setOutcome(answer.message),
    onError: (error) =>
      setOutcome(errorMessage(error, 'The student could not be changed. Please try again.')),
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
            <th scope="col">Name</th>
            <th scope="col">Email</th>
            <th scope="col">Group</th>
            <th scope="col">Last invited</th>
            <th scope="col">Last answered</th>
            <th scope="col">On the roster</th>
          </tr>
        </thead>
        <tbody>
          {students.map((student) => (
            <tr key={student.email}>
              <th scope="row" className={styles.wrap}>
                {student.name}
              </th>
              <td data-label="Email" className={styles.wrap}>
                {student.email}
              </td>
              <td data-label="Group">{student.group ?? 'No group'}</td>
              <td data-label="Last invited">{dateText(student.last_invited_at)}</td>
              <td data-label="Last answered">{dateText(student.last_answered_at)}</td>
              <td data-label="On the roster">
                {student.left_at ? `Left ${dateText(student.left_at)} ` : ''}
                <Button
                  size="small"
                  variant="secondary"
                  busy={mark.isPending && mark.variables?.id === student.id}
                  onClick={() => mark.mutate({ id: student.id, left: student.left_at === null })}
                  aria-label={`${student.left_at === null ? 'Mark as left' : 'Back on the roster'}: ${student.name}`}
                >
                  {student.left_at === null ? 'Mark as left' : 'Back on the roster'}
                </Button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}
