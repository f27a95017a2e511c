import type { MessageDescriptor } from '@lingui/core';
import { msg, plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import type { ErasureCounts, ErasurePreviewResponse } from '../../../common/schemas/records';
import { errorMessage } from '../../api';
import { Button } from '../../ui/Button';
import { TextField } from '../../ui/Field';
import { Flash, useFlash } from '../../ui/Flash';
import { Modal } from '../../ui/Modal';
import { Card } from '../../ui/Page';
import styles from './Records.module.css';
import { eraseStudent, previewErasure, RECORDS_REQUESTS_QUERY_KEY } from './recordsApi';

/** Each kind an erasure removes, as the confirmation names it. */
const KINDS: Record<keyof ErasureCounts, (count: number) => MessageDescriptor> = {
  accounts: (count) => msg`${plural(count, { one: '# sign-in account', other: '# sign-in accounts' })}`,
  submissions: (count) => msg`${plural(count, { one: '# check-in', other: '# check-ins' })}`,
  question_answers: (count) => msg`${plural(count, { one: '# answer', other: '# answers' })}`,
  screening_results: (count) =>
    msg`${plural(count, { one: '# screening result', other: '# screening results' })}`,
  drafts: (count) => msg`${plural(count, { one: '# unsent draft', other: '# unsent drafts' })}`,
  verification: (count) =>
    msg`${plural(count, { one: '# email code or proven address', other: '# email codes and proven addresses' })}`,
  invitations: (count) =>
    msg`${plural(count, { one: '# personal survey link', other: '# personal survey links' })}`,
  roster_entries: (count) => msg`${plural(count, { one: '# roster entry', other: '# roster entries' })}`,
  cases: (count) => msg`${plural(count, { one: '# case', other: '# cases' })}`,
  case_entries: (count) =>
    msg`${plural(count, { one: '# case note or history entry', other: '# case notes and history entries' })}`,
  pending_mail: (count) => msg`${plural(count, { one: '# unsent mail', other: '# unsent mails' })}`,
};

const BLOCKED = {
  legal_hold: msg`This student's data is under a legal hold. Lift the hold before erasing it.`,
  records_request: msg`This student has an open records request. Mark it fulfilled before erasing their data.`,
} as const;

function countLines(counts: ErasureCounts): MessageDescriptor[] {
  return (Object.keys(KINDS) as (keyof ErasureCounts)[])
    .filter((kind) => counts[kind] > 0)
    .map((kind) => KINDS[kind](counts[kind]));
}

/** Erasure on request: the admin names the student, reads what will go, and confirms. */
export function ErasureSection() {
  const { t, i18n } = useLingui();
  const queryClient = useQueryClient();
  const { flash, showFlash } = useFlash();
  const [email, setEmail] = useState('');
  const [preview, setPreview] = useState<(ErasurePreviewResponse & { email: string }) | null>(null);
  const review = useMutation({
    mutationFn: (address: string) =>
      previewErasure(address).then((answer) => ({ ...answer, email: address })),
    onSuccess: setPreview,
    onError: (error) => showFlash(errorMessage(error, t`What would be erased could not be read.`), 'error'),
  });
  const erase = useMutation({
    mutationFn: eraseStudent,
    onSuccess: (answer) => {
      setPreview(null);
      setEmail('');
      void queryClient.invalidateQueries({ queryKey: RECORDS_REQUESTS_QUERY_KEY });
      showFlash(answer.message);
    },
    onError: (error) => {
      setPreview(null);
      showFlash(errorMessage(error, t`The student's data could not be erased.`), 'error');
    },
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    review.mutate(email.trim());
  }

  const lines = preview ? countLines(preview.counts).map((line) => i18n._(line)) : [];
  const blocked = preview?.blocked_by ? i18n._(BLOCKED[preview.blocked_by]) : null;
  const previewEmail = preview?.email ?? '';
  return (
    <Card className={styles.section}>
      <section aria-labelledby="erasure-heading">
        <h2 className={styles.sectionTitle} id="erasure-heading">
          <Trans>Erase a student&apos;s data</Trans>
        </h2>
        <p className={styles.muted}>
          <Trans>
            On the student&apos;s request. Their answers, drafts, sign-in, roster entry, personal links and
            cases go for good; the dashboard is recounted without them. The activity log keeps that an erasure
            happened, not what was erased.
          </Trans>
        </p>
        <Flash flash={flash} floating />
        <form className={styles.form} onSubmit={submit} noValidate aria-label={t`Erase a student's data`}>
          <TextField
            label={t`Student email`}
            type="email"
            autoComplete="off"
            value={email}
            onChange={(event) => setEmail(event.target.value)}
          />
          <Button type="submit" variant="secondary" className={styles.fit} busy={review.isPending}>
            <Trans>Review what will be erased</Trans>
          </Button>
        </form>
      </section>
      <Modal
        open={preview !== null}
        title={blocked ? t`Erasure not possible now` : t`Erase ${previewEmail}?`}
        role="alertdialog"
        onClose={() => setPreview(null)}
        actions={
          <>
            <Button variant="secondary" onClick={() => setPreview(null)}>
              <Trans>Cancel</Trans>
            </Button>
            {!blocked && (
              <Button
                variant="danger"
                busy={erase.isPending}
                onClick={() => preview && erase.mutate(preview.email)}
              >
                <Trans>Erase permanently</Trans>
              </Button>
            )}
          </>
        }
      >
        {blocked ? (
          <p className={styles.blocked}>{blocked}</p>
        ) : lines.length === 0 ? (
          <p>
            <Trans>
              Nothing is held about this address. Erasing records that the request was carried out.
            </Trans>
          </p>
        ) : (
          <>
            <p>
              <Trans>This removes, and cannot be undone:</Trans>
            </p>
            <ul className={styles.counts}>
              {lines.map((line) => (
                <li key={line}>{line}</li>
              ))}
            </ul>
          </>
        )}
      </Modal>
    </Card>
  );
}
