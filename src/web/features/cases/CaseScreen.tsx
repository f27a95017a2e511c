import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { Link, useParams } from 'react-router';
import {
  CASE_NOTE_MAX_LENGTH,
  CASE_OUTCOME_LABELS,
  CASE_OUTCOMES,
  type CaseDetailResponse,
  type CaseOutcome,
} from '../../../common/schemas/cases';
import { errorMessage } from '../../api';
import { Button, ButtonLink } from '../../ui/Button';
import { type Confirmation, ConfirmDialog } from '../../ui/ConfirmDialog';
import { SelectField, TextAreaField } from '../../ui/Field';
import { Flash, useFlash } from '../../ui/Flash';
import { LoadError } from '../../ui/LoadError';
import { Card, Page } from '../../ui/Page';
import { AdminOnly, LoadingStatus } from '../admin/AdminOnly';
import layout from '../admin/AdminPage.module.css';
import { NotFoundScreen } from '../not-found/NotFoundScreen';
import { ZonedTime } from '../time/ZonedTime';
import { CaseBadges } from './CaseBadges';
import styles from './Cases.module.css';
import { CaseTrail } from './CaseTrail';
import {
  acknowledgeCase,
  addCaseNote,
  assignCase,
  CASES_LIST_QUERY_KEY,
  caseQueryKey,
  fetchCase,
  historyPath,
  reopenCase,
  resolveCase,
} from './casesApi';
import { SubmissionList } from './SubmissionList';

const TITLE = 'Case';

/** Where focus goes after a change: the next thing one would do on the case. */
type FocusTarget = 'assignee' | 'note';

const MAIL_STATUS: Record<string, string> = { pending: 'Waiting to send', sent: 'Sent', failed: 'Failed' };

export function CaseScreen() {
  return (
    <AdminOnly ability="cases" title={TITLE} loadingText="Loading the case...">
      <CaseDetail />
    </AdminOnly>
  );
}

function CaseDetail() {
  const id = Number(useParams().id);
  const valid = Number.isInteger(id) && id > 0;
  const query = useQuery({ queryKey: caseQueryKey(id), queryFn: () => fetchCase(id), enabled: valid });
  if (!valid) return <NotFoundScreen />;
  return (
    <Page>
      {query.isPending ? (
        <LoadingStatus>Loading case...</LoadingStatus>
      ) : query.isError ? (
        <LoadError
          message={errorMessage(query.error, 'Failed to load the case')}
          onRetry={() => void query.refetch()}
        />
      ) : (
        <CaseView data={query.data} />
      )}
    </Page>
  );
}

function CaseView({ data }: { data: CaseDetailResponse }) {
  const item = data.case;
  const queryClient = useQueryClient();
  const { flash, showFlash } = useFlash();
  const [assignee, setAssignee] = useState(String(item.assigned_to?.id ?? data.assignees[0]?.id ?? ''));
  const [note, setNote] = useState('');
  const [outcome, setOutcome] = useState<CaseOutcome>('connected_to_counselling');
  const [resolution, setResolution] = useState('');
  const actionsRef = useRef<HTMLDivElement>(null);
  // The control to take focus once a change is drawn: the one pressed may be gone (Acknowledge)
  // or unavailable (Add note with the note cleared), which would drop focus to the page.
  const [focusNext, setFocusNext] = useState<FocusTarget | null>(null);
  useEffect(() => {
    if (!focusNext) return;
    actionsRef.current?.querySelector<HTMLElement>(`[name="${focusNext}"]`)?.focus();
    setFocusNext(null);
  }, [focusNext]);
  const [reopenReason, setReopenReason] = useState('');
  const [confirmation, setConfirmation] = useState<Confirmation | null>(null);

  const change = useMutation({
    mutationFn: (work: () => Promise<CaseDetailResponse>) => work(),
    onSuccess: (updated, _work) => {
      queryClient.setQueryData(caseQueryKey(item.id), updated);
      void queryClient.invalidateQueries({ queryKey: CASES_LIST_QUERY_KEY });
    },
    onError: (error) =>
      showFlash(errorMessage(error, 'The change could not be saved. Please try again.'), 'error'),
  });
  const run = (
    work: () => Promise<CaseDetailResponse>,
    done: string,
    then: { focus?: FocusTarget; after?: () => void } = {},
  ) => {
    if (change.isPending) return;
    change.mutate(work, {
      onSuccess: () => {
        showFlash(done);
        then.after?.();
        if (then.focus) setFocusNext(then.focus);
      },
    });
  };

  const open = item.status !== 'resolved';

  function submitNote(event: FormEvent) {
    event.preventDefault();
    run(() => addCaseNote(item.id, note), 'Note added.', { focus: 'note', after: () => setNote('') });
  }
  function submitResolve(event: FormEvent) {
    event.preventDefault();
    // Resolving ends the deadlines and escalations: asked first, like every change that closes something.
    setConfirmation({
      title: 'Resolve this case?',
      text: `Resolve case ${item.id} for ${item.student_name} as "${CASE_OUTCOME_LABELS[outcome]}"? Its deadline and reminders stop; it can be reopened later.`,
      confirmLabel: 'Resolve case',
      onConfirm: () =>
        run(() => resolveCase(item.id, outcome, resolution), 'Case resolved.', {
          after: () => setResolution(''),
        }),
    });
  }
  function submitReopen(event: FormEvent) {
    event.preventDefault();
    setConfirmation({
      title: 'Reopen this case?',
      text: `Reopen case ${item.id} for ${item.student_name}? It goes back to New and must be acknowledged again in time, or the escalation contacts are reminded.`,
      confirmLabel: 'Reopen case',
      onConfirm: () =>
        run(() => reopenCase(item.id, reopenReason), 'Case reopened.', { after: () => setReopenReason('') }),
    });
  }
  function submitAssign(event: FormEvent) {
    event.preventDefault();
    run(() => assignCase(item.id, Number(assignee)), 'Case assigned.', { focus: 'note' });
  }

  return (
    <>
      <Flash flash={flash} floating />
      <ConfirmDialog confirmation={confirmation} onClose={() => setConfirmation(null)} />
      <div className={layout.heading}>
        <div>
          <h1>
            Case {item.id}: {item.student_name}
          </h1>
          <CaseBadges item={item} />
          {item.claimed_name !== null && (
            <p className={styles.muted}>
              Name given by a sender who has not confirmed the address: {item.claimed_name}
            </p>
          )}
        </div>
        <nav className={layout.toolbar} aria-label="Case links">
          <ButtonLink variant="secondary" to="/cases/">
            All cases
          </ButtonLink>
          <ButtonLink variant="secondary" to={historyPath(item.student_id)}>
            Student history
          </ButtonLink>
        </nav>
      </div>
      <div className={styles.layout}>
        <div>
          <Card className={styles.section}>
            <h2>Details</h2>
            <dl className={styles.facts}>
              <dt>Email</dt>
              <dd>{item.school_email}</dd>
              <dt>Opened</dt>
              <dd>
                <ZonedTime at={item.opened_at} />
              </dd>
              <dt>Acknowledge by</dt>
              <dd>
                <ZonedTime at={item.acknowledge_by} />
              </dd>
              <dt>Acknowledged</dt>
              <dd>
                <ZonedTime at={item.acknowledged_at} fallback="Not yet" />
              </dd>
              <dt>Assigned to</dt>
              <dd>{item.assigned_to?.name ?? 'Nobody yet'}</dd>
              {item.outcome && (
                <>
                  <dt>Outcome</dt>
                  <dd>{CASE_OUTCOME_LABELS[item.outcome]}</dd>
                </>
              )}
            </dl>
          </Card>
          {item.contacts.length > 0 && (
            <Card className={styles.section}>
              <h2>Asked to be contacted</h2>
              <p>
                From an anonymous survey: only what the student chose to share is known. The details are their
                own word, not confirmed.
              </p>
              {item.contacts.map((contact) => (
                <dl key={contact.asked_at} className={styles.facts}>
                  <dt>Name</dt>
                  <dd>{contact.name ?? 'Not given'}</dd>
                  <dt>Email</dt>
                  <dd>{contact.email ?? 'Not given'}</dd>
                  <dt>Phone</dt>
                  <dd>{contact.phone ?? 'Not given'}</dd>
                  <dt>Answers</dt>
                  <dd>
                    {contact.answers === null ? (
                      'Not shared'
                    ) : (
                      <ul>
                        {contact.answers.map((shared) => (
                          <li key={shared.question}>
                            {shared.question}: {shared.answer}
                          </li>
                        ))}
                      </ul>
                    )}
                  </dd>
                </dl>
              ))}
            </Card>
          )}
          <Card className={styles.section}>
            <h2>Check-ins in this case</h2>
            <SubmissionList submissions={[...item.submissions].reverse()} />
          </Card>
          <Card className={styles.section}>
            <h2>Trail</h2>
            <CaseTrail events={item.events} />
          </Card>
        </div>
        <div>
          {open && (
            <Card className={styles.section}>
              <h2>Work on this case</h2>
              <div className={styles.actions} ref={actionsRef}>
                {item.status === 'new' && (
                  <Button
                    busy={change.isPending}
                    onClick={() =>
                      run(() => acknowledgeCase(item.id), 'Case acknowledged.', { focus: 'assignee' })
                    }
                  >
                    Acknowledge
                  </Button>
                )}
                <form onSubmit={submitAssign}>
                  <SelectField
                    label="Assign to"
                    name="assignee"
                    value={assignee}
                    onChange={(event) => setAssignee(event.target.value)}
                  >
                    {data.assignees.map((person) => (
                      <option key={person.id} value={String(person.id)}>
                        {person.name}
                      </option>
                    ))}
                  </SelectField>
                  <Button type="submit" variant="secondary" busy={change.isPending} disabled={!assignee}>
                    Assign
                  </Button>
                </form>
                <form onSubmit={submitNote}>
                  <TextAreaField
                    label="Note"
                    name="note"
                    hint="Staff only; never shown to the student."
                    value={note}
                    maxLength={CASE_NOTE_MAX_LENGTH}
                    rows={4}
                    onChange={(event) => setNote(event.target.value)}
                  />
                  <Button type="submit" variant="secondary" busy={change.isPending} disabled={!note.trim()}>
                    Add note
                  </Button>
                </form>
                <form onSubmit={submitResolve}>
                  <SelectField
                    label="Outcome"
                    value={outcome}
                    onChange={(event) => setOutcome(event.target.value as CaseOutcome)}
                  >
                    {CASE_OUTCOMES.map((code) => (
                      <option key={code} value={code}>
                        {CASE_OUTCOME_LABELS[code]}
                      </option>
                    ))}
                  </SelectField>
                  <TextAreaField
                    label="What happened"
                    hint={outcome === 'other' ? 'Required for Other.' : 'Optional.'}
                    value={resolution}
                    maxLength={CASE_NOTE_MAX_LENGTH}
                    rows={3}
                    onChange={(event) => setResolution(event.target.value)}
                  />
                  <Button type="submit" disabled={change.isPending}>
                    Resolve case
                  </Button>
                </form>
              </div>
            </Card>
          )}
          {!open && (
            <Card className={styles.section}>
              <h2>Reopen this case</h2>
              <form onSubmit={submitReopen}>
                <TextAreaField
                  label="Why reopen"
                  hint="Optional; kept in the trail."
                  value={reopenReason}
                  maxLength={CASE_NOTE_MAX_LENGTH}
                  rows={3}
                  onChange={(event) => setReopenReason(event.target.value)}
                />
                <Button type="submit" variant="secondary" disabled={change.isPending}>
                  Reopen case
                </Button>
              </form>
            </Card>
          )}
          <Card className={styles.section}>
            <h2>Mail about this case</h2>
            {item.mails.length === 0 ? (
              <p className={styles.muted}>No alert or escalation mail.</p>
            ) : (
              <ul className={styles.trail}>
                {item.mails.map((mail) => (
                  <li key={`${mail.kind}-${mail.to}-${mail.queued_at}`}>
                    <strong>{mail.kind === 'alert' ? 'Alert' : 'Escalation'}</strong> to {mail.to}
                    <div className={styles.muted}>
                      {MAIL_STATUS[mail.status] ?? mail.status}
                      {mail.sent_at && (
                        <>
                          {' '}
                          <ZonedTime at={mail.sent_at} />
                        </>
                      )}
                    </div>
                  </li>
                ))}
              </ul>
            )}
          </Card>
          <p className={styles.muted}>
            <Link to="/cases/">Back to all cases</Link>
          </p>
        </div>
      </div>
    </>
  );
}
