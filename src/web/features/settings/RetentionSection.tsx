import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import type { RetentionSettingsResponse } from '../../../common/schemas/retention';
import { errorMessage } from '../../api';
import { Button } from '../../ui/Button';
import { TextField } from '../../ui/Field';
import { Flash, useFlash } from '../../ui/Flash';
import { LoadError } from '../../ui/LoadError';
import { Card } from '../../ui/Page';
import { LoadingStatus } from '../admin/AdminOnly';
import { LegalHolds } from './LegalHolds';
import { fetchRetention, RETENTION_QUERY_KEY, saveRetention } from './retentionApi';
import styles from './Settings.module.css';

const day = (iso: string) =>
  new Date(iso).toLocaleDateString(undefined, {
    year: 'numeric',
    month: 'long',
    day: 'numeric',
    timeZone: 'UTC',
  });

/** How long answers, closed cases and the audit log are kept (design section 14), and legal holds. */
export function RetentionSection() {
  const query = useQuery({ queryKey: RETENTION_QUERY_KEY, queryFn: fetchRetention });
  return (
    <Card className={styles.section}>
      <h2 className={styles.sectionTitle} id="retention-heading">
        Data retention
      </h2>
      {query.isPending ? (
        <LoadingStatus>Loading data retention...</LoadingStatus>
      ) : query.isError ? (
        <LoadError message="Failed to load data retention" onRetry={() => void query.refetch()} />
      ) : (
        <RetentionForm initial={query.data} />
      )}
      <LegalHolds />
    </Card>
  );
}

function RetentionForm({ initial }: { initial: RetentionSettingsResponse }) {
  const queryClient = useQueryClient();
  const { flash, showFlash } = useFlash();
  const [answers, setAnswers] = useState(String(initial.answers_months));
  const [cases, setCases] = useState(String(initial.closed_cases_months));
  const [audit, setAudit] = useState(String(initial.audit_log_months));
  const save = useMutation({
    mutationFn: saveRetention,
    onSuccess: (answer) => {
      queryClient.setQueryData(RETENTION_QUERY_KEY, answer);
      showFlash('Retention periods saved.');
    },
    onError: (error) => showFlash(errorMessage(error, 'Retention periods could not be saved.'), 'error'),
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    save.mutate({
      answers_months: Number(answers),
      closed_cases_months: Number(cases),
      audit_log_months: Number(audit),
    });
  }

  const next = initial.next_purge;
  return (
    <>
      <Flash flash={flash} floating />
      <p className={`${styles.muted} ${styles.intro}`}>
        A daily purge deletes what is older than these periods, except the data of students under a legal
        hold.
      </p>
      <form className={styles.form} onSubmit={submit} noValidate aria-labelledby="retention-heading">
        <div className={styles.pair}>
          <TextField
            label="Answers (months)"
            hint="Check-ins, their answers and scores, anonymous campaigns' answers, and unsent drafts."
            type="number"
            inputMode="numeric"
            min={1}
            max={240}
            step={1}
            value={answers}
            onChange={(event) => setAnswers(event.target.value)}
          />
          <TextField
            label="Closed cases (months)"
            hint="Counted from when a case was resolved."
            type="number"
            inputMode="numeric"
            min={1}
            max={240}
            step={1}
            value={cases}
            onChange={(event) => setCases(event.target.value)}
          />
        </div>
        <TextField
          label="Activity log (months)"
          hint="At least 12; 84 months is 7 years."
          type="number"
          inputMode="numeric"
          min={12}
          max={240}
          step={1}
          value={audit}
          onChange={(event) => setAudit(event.target.value)}
        />
        <div className={styles.buttons}>
          <Button type="submit" busy={save.isPending}>
            Save retention periods
          </Button>
        </div>
      </form>
      <h3 className={styles.subheading}>Next purge: {day(next.at)}</h3>
      <ul className={styles.purgeList} aria-label="What the next purge deletes">
        <li>
          {next.submissions.count} check-ins from before {day(next.submissions.before)}
        </li>
        <li>
          {next.anonymous_answers.count} anonymous campaign answers from before{' '}
          {day(next.anonymous_answers.before)}
        </li>
        <li>
          {next.drafts.count} unsent drafts last saved before {day(next.drafts.before)}
        </li>
        <li>
          {next.closed_cases.count} cases resolved before {day(next.closed_cases.before)}
        </li>
        <li>
          {next.audit_log.count} activity log entries from before {day(next.audit_log.before)}
        </li>
      </ul>
      {next.held_students > 0 && (
        <p className={styles.muted}>
          {next.held_students === 1
            ? '1 student is under a legal hold: nothing of theirs is deleted.'
            : `${next.held_students} students are under a legal hold: nothing of theirs is deleted.`}
        </p>
      )}
    </>
  );
}
