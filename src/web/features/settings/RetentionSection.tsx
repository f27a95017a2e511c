import { plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
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

const day = (iso: string, locale: string) =>
  new Date(iso).toLocaleDateString(locale, {
    year: 'numeric',
    month: 'long',
    day: 'numeric',
    timeZone: 'UTC',
  });

/** How long answers, closed cases and the audit log are kept (design section 14), and legal holds. */
export function RetentionSection() {
  const { t } = useLingui();
  const query = useQuery({ queryKey: RETENTION_QUERY_KEY, queryFn: fetchRetention });
  return (
    <Card className={styles.section}>
      <h2 className={styles.sectionTitle} id="retention-heading">
        <Trans>Data retention</Trans>
      </h2>
      {query.isPending ? (
        <LoadingStatus>
          <Trans>Loading data retention...</Trans>
        </LoadingStatus>
      ) : query.isError ? (
        <LoadError message={t`Failed to load data retention`} onRetry={() => void query.refetch()} />
      ) : (
        <RetentionForm initial={query.data} />
      )}
      <LegalHolds />
    </Card>
  );
}

function RetentionForm({ initial }: { initial: RetentionSettingsResponse }) {
  const { t, i18n } = useLingui();
  const queryClient = useQueryClient();
  const { flash, showFlash } = useFlash();
  const [answers, setAnswers] = useState(String(initial.answers_months));
  const [cases, setCases] = useState(String(initial.closed_cases_months));
  const [audit, setAudit] = useState(String(initial.audit_log_months));
  const save = useMutation({
    mutationFn: saveRetention,
    onSuccess: (answer) => {
      queryClient.setQueryData(RETENTION_QUERY_KEY, answer);
      showFlash(t`Retention periods saved.`);
    },
    onError: (error) => showFlash(errorMessage(error, t`Retention periods could not be saved.`), 'error'),
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
  const date = (iso: string) => day(iso, i18n.locale);
  const purgeDay = date(next.at);
  const submissionsCount = next.submissions.count;
  const submissionsBefore = date(next.submissions.before);
  const anonymousCount = next.anonymous_answers.count;
  const anonymousBefore = date(next.anonymous_answers.before);
  const draftsCount = next.drafts.count;
  const draftsBefore = date(next.drafts.before);
  const casesCount = next.closed_cases.count;
  const casesBefore = date(next.closed_cases.before);
  const auditCount = next.audit_log.count;
  const auditBefore = date(next.audit_log.before);
  return (
    <>
      <Flash flash={flash} floating />
      <p className={`${styles.muted} ${styles.intro}`}>
        <Trans>
          A daily purge deletes what is older than these periods, except the data of students under a legal
          hold.
        </Trans>
      </p>
      <form className={styles.form} onSubmit={submit} noValidate aria-labelledby="retention-heading">
        <div className={styles.pair}>
          <TextField
            label={t`Answers (months)`}
            hint={t`Check-ins, their answers and scores, anonymous campaigns' answers, and unsent drafts.`}
            type="number"
            inputMode="numeric"
            min={1}
            max={240}
            step={1}
            value={answers}
            onChange={(event) => setAnswers(event.target.value)}
          />
          <TextField
            label={t`Closed cases (months)`}
            hint={t`Counted from when a case was resolved.`}
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
          label={t`Activity log (months)`}
          hint={t`At least 12; 84 months is 7 years.`}
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
            <Trans>Save retention periods</Trans>
          </Button>
        </div>
      </form>
      <h3 className={styles.subheading}>
        <Trans>Next purge: {purgeDay}</Trans>
      </h3>
      <ul className={styles.purgeList} aria-label={t`What the next purge deletes`}>
        <li>
          <Trans>
            {submissionsCount} check-ins from before {submissionsBefore}
          </Trans>
        </li>
        <li>
          <Trans>
            {anonymousCount} anonymous campaign answers from before {anonymousBefore}
          </Trans>
        </li>
        <li>
          <Trans>
            {draftsCount} unsent drafts last saved before {draftsBefore}
          </Trans>
        </li>
        <li>
          <Trans>
            {casesCount} cases resolved before {casesBefore}
          </Trans>
        </li>
        <li>
          <Trans>
            {auditCount} activity log entries from before {auditBefore}
          </Trans>
        </li>
      </ul>
      {next.held_students > 0 && (
        <p className={styles.muted}>
          {t`${plural(next.held_students, {
            one: '# student is under a legal hold: nothing of theirs is deleted.',
            other: '# students are under a legal hold: nothing of theirs is deleted.',
          })}`}
        </p>
      )}
    </>
  );
}
