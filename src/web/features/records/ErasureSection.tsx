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
const KINDS: Record<keyof ErasureCounts, [one: string, many: string]> = {
  accounts: ['sign-in account', 'sign-in accounts'],
  submissions: ['check-in', 'check-ins'],
  question_answers: ['answer', 'answers'],
  screening_results: ['screening result', 'screening results'],
  drafts: ['unsent draft', 'unsent drafts'],
  verification: ['email code or proven address', 'email codes and proven addresses'],
  invitations: ['personal survey link', 'personal survey links'],
  roster_entries: ['roster entry', 'roster entries'],
  cases: ['case', 'cases'],
  case_entries: ['case note or history entry', 'case notes and history entries'],
  pending_mail: ['unsent mail', 'unsent mails'],
};

const BLOCKED = {
  legal_hold: "This student's data is under a legal hold. Lift the hold before erasing it.",
  records_request: 'This student has an open records request. Mark it fulfilled before erasing their data.',
} as const;

function countLines(counts: ErasureCounts): string[] {
  return (Object.keys(KINDS) as (keyof ErasureCounts)[])
    .filter((kind) => counts[kind] > 0)
    .map((kind) => `${counts[kind]} ${KINDS[kind][counts[kind] === 1 ? 0 : 1]}`);
}

/** Erasure on request: the admin names the student, reads what will go, and confirms. */
export function ErasureSection() {
  const queryClient = useQueryClient();
  const { flash, showFlash } = useFlash();
  const [email, setEmail] = useState('');
  const [preview, setPreview] = useState<(ErasurePreviewResponse & { email: string }) | null>(null);
  const review = useMutation({
    mutationFn: (address: string) =>
      previewErasure(address).then((answer) => ({ ...answer, email: address })),
    onSuccess: setPreview,
    onError: (error) => showFlash(errorMessage(error, 'What would be erased could not be read.'), 'error'),
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
      showFlash(errorMessage(error, "The student's data could not be erased."), 'error');
    },
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    review.mutate(email.trim());
  }

  const lines = preview ? countLines(preview.counts) : [];
  const blocked = preview?.blocked_by ? BLOCKED[preview.blocked_by] : null;
  return (
    <Card className={styles.section}>
      <section aria-labelledby="erasure-heading">
        <h2 className={styles.sectionTitle} id="erasure-heading">
          Erase a student&apos;s data
        </h2>
        <p className={styles.muted}>
          On the student&apos;s request. Their answers, drafts, sign-in, roster entry, personal links and
          cases go for good; the dashboard is recounted without them. The activity log keeps that an erasure
          happened, not what was erased.
        </p>
        <Flash flash={flash} floating />
        <form className={styles.form} onSubmit={submit} noValidate aria-label="Erase a student's data">
          <TextField
            label="Student email"
            type="email"
            autoComplete="off"
            value={email}
            onChange={(event) => setEmail(event.target.value)}
          />
          <Button type="submit" variant="secondary" className={styles.fit} busy={review.isPending}>
            Review what will be erased
          </Button>
        </form>
      </section>
      <Modal
        open={preview !== null}
        title={blocked ? 'Erasure not possible now' : `Erase ${preview?.email ?? ''}?`}
        role="alertdialog"
        onClose={() => setPreview(null)}
        actions={
          <>
            <Button variant="secondary" onClick={() => setPreview(null)}>
              Cancel
            </Button>
            {!blocked && (
              <Button
                variant="danger"
                busy={erase.isPending}
                onClick={() => preview && erase.mutate(preview.email)}
              >
                Erase permanently
              </Button>
            )}
          </>
        }
      >
        {blocked ? (
          <p className={styles.blocked}>{blocked}</p>
        ) : lines.length === 0 ? (
          <p>Nothing is held about this address. Erasing records that the request was carried out.</p>
        ) : (
          <>
            <p>This removes, and cannot be undone:</p>
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
