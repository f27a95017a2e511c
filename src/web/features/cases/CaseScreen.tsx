import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { Link, useParams } from 'react-router';
import {
  CASE_NOTE_MAX_LENGTH,
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
import { CASE_OUTCOME_LABELS } from './format';
import { SubmissionList } from './SubmissionList';

/** Where focus goes after a change: the next thing one would do on the case. */
type FocusTarget = 'assignee' | 'note';

const MAIL_STATUS: Record<string, MessageDescriptor> = {
  pending: msg`Waiting to send`,
  // Apart from other uses of "Sent": other languages agree the word with what it describes.
  sent: msg({ message: 'Sent', context: 'mail state' }),
  failed: msg`Failed`,
};

export function CaseScreen() {
  const { t } = useLingui();
  return (
    <AdminOnly ability="cases" title={t`Case`} loadingText={t`Loading the case...`}>
      <CaseDetail />
    </AdminOnly>
  );
}

function CaseDetail() {
  const { t } = useLingui();
  const id = Number(useParams().id);
  const valid = Number.isInteger(id) && id > 0;
  const query = useQuery({ queryKey: caseQueryKey(id), queryFn: () => fetchCase(id), enabled: valid });
  if (!valid) return <NotFoundScreen />;
  return (
    <Page>
      {query.isPending ? (
        <LoadingStatus>
          <Trans>Loading case...</Trans>
        </LoadingStatus>
      ) : query.isError ? (
        <LoadError
          message={errorMessage(query.error, t`Failed to load the case`)}
          onRetry={() => void query.refetch()}
        />
      ) : (
        <CaseView data={query.data} />
      )}
    </Page>
  );
}

function CaseView({ data }: { data: CaseDetailResponse }) {
  const { t, i18n } = useLingui();
  const item = data.case;
  const { id, student_name: student, claimed_name: claimedName } = item;
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
      showFlash(errorMessage(error, t`The change could not be saved. Please try again.`), 'error'),
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
    run(() => addCaseNote(item.id, note), t`Note added.`, { focus: 'note', after: () => setNote('') });
  }
  function submitResolve(event: FormEvent) {
    event.preventDefault();
    // Resolving ends the deadlines and escalations: asked first, like every change that closes something.
    const outcomeLabel = i18n._(CASE_OUTCOME_LABELS[outcome]);
    setConfirmation({
      title: t`Resolve this case?`,
      text: t`Resolve case ${id} for ${student} as "${outcomeLabel}"? Its deadline and reminders stop; it can be reopened later.`,
      confirmLabel: t`Resolve case`,
      onConfirm: () =>
        run(() => resolveCase(item.id, outcome, resolution), t`Case resolved.`, {
          after: () => setResolution(''),
        }),
    });
  }
  function submitReopen(event: FormEvent) {
    event.preventDefault();
    setConfirmation({
      title: t`Reopen this case?`,
      text: t`Reopen case ${id} for ${student}? It goes back to New and must be acknowledged again in time, or the escalation contacts are reminded.`,
      confirmLabel: t`Reopen case`,
      onConfirm: () =>
        run(() => reopenCase(item.id, reopenReason), t`Case reopened.`, { after: () => setReopenReason('') }),
    });
  }
  function submitAssign(event: FormEvent) {
    event.preventDefault();
    run(() => assignCase(item.id, Number(assignee)), t`Case assigned.`, { focus: 'note' });
  }

  return (
    <>
      <Flash flash={flash} floating />
      <ConfirmDialog confirmation={confirmation} onClose={() => setConfirmation(null)} />
      <div className={layout.heading}>
        <div>
          <h1>
            <Trans>
              Case {id}: {student}
            </Trans>
          </h1>
          <CaseBadges item={item} />
          {claimedName !== null && (
            <p className={styles.muted}>
              <Trans>Name given by a sender who has not confirmed the address: {claimedName}</Trans>
            </p>
          )}
        </div>
        <nav className={layout.toolbar} aria-label={t`Case links`}>
          <ButtonLink variant="secondary" to="/cases/">
            <Trans>All cases</Trans>
          </ButtonLink>
          <ButtonLink variant="secondary" to={historyPath(item.student_id)}>
            <Trans>Student history</Trans>
          </ButtonLink>
        </nav>
      </div>
      <div className={styles.layout}>
        <div>
          <Card className={styles.section}>
            <h2>
              <Trans>Details</Trans>
            </h2>
            <dl className={styles.facts}>
              <dt>
                <Trans>Email</Trans>
              </dt>
              <dd>{item.school_email}</dd>
              <dt>
                <Trans>Opened</Trans>
              </dt>
              <dd>
                <ZonedTime at={item.opened_at} />
              </dd>
              <dt>
                <Trans>Acknowledge by</Trans>
              </dt>
              <dd>
                <ZonedTime at={item.acknowledge_by} />
              </dd>
              <dt>
                <Trans>Acknowledged</Trans>
              </dt>
              <dd>
                <ZonedTime at={item.acknowledged_at} fallback={t`Not yet`} />
              </dd>
              <dt>
                <Trans>Assigned to</Trans>
              </dt>
              <dd>{item.assigned_to?.name ?? t`Nobody yet`}</dd>
              {item.outcome && (
                <>
                  <dt>
                    <Trans>Outcome</Trans>
                  </dt>
                  <dd>{i18n._(CASE_OUTCOME_LABELS[item.outcome])}</dd>
                </>
              )}
            </dl>
          </Card>
          {item.contacts.length > 0 && (
            <Card className={styles.section}>
              <h2>
                <Trans>Asked to be contacted</Trans>
              </h2>
              <p>
                <Trans>
                  From an anonymous survey: only what the student chose to share is known. The details are
                  their own word, not confirmed.
                </Trans>
              </p>
              {item.contacts.map((contact) => (
                <dl key={contact.asked_at} className={styles.facts}>
                  <dt>
                    <Trans>Name</Trans>
                  </dt>
                  <dd>{contact.name ?? t`Not given`}</dd>
                  <dt>
                    <Trans>Email</Trans>
                  </dt>
                  <dd>{contact.email ?? t`Not given`}</dd>
                  <dt>
                    <Trans>Phone</Trans>
                  </dt>
                  <dd>{contact.phone ?? t`Not given`}</dd>
                  <dt>
                    <Trans>Answers</Trans>
                  </dt>
                  <dd>
                    {contact.answers === null ? (
                      t`Not shared`
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
            <h2>
              <Trans>Check-ins in this case</Trans>
            </h2>
            <SubmissionList submissions={[...item.submissions].reverse()} />
          </Card>
          <Card className={styles.section}>
            <h2>
              <Trans>Trail</Trans>
            </h2>
            <CaseTrail events={item.events} />
          </Card>
        </div>
        <div>
          {open && (
            <Card className={styles.section}>
              <h2>
                <Trans>Work on this case</Trans>
              </h2>
              <div className={styles.actions} ref={actionsRef}>
                {item.status === 'new' && (
                  <Button
                    busy={change.isPending}
                    onClick={() =>
                      run(() => acknowledgeCase(item.id), t`Case acknowledged.`, { focus: 'assignee' })
                    }
                  >
                    <Trans>Acknowledge</Trans>
                  </Button>
                )}
                <form onSubmit={submitAssign}>
                  <SelectField
                    label={t`Assign to`}
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
                    <Trans>Assign</Trans>
                  </Button>
                </form>
                <form onSubmit={submitNote}>
                  <TextAreaField
                    label={t`Note`}
                    name="note"
                    hint={t`Staff only; never shown to the student.`}
                    value={note}
                    maxLength={CASE_NOTE_MAX_LENGTH}
                    rows={4}
                    onChange={(event) => setNote(event.target.value)}
                  />
                  <Button type="submit" variant="secondary" busy={change.isPending} disabled={!note.trim()}>
                    <Trans>Add note</Trans>
                  </Button>
                </form>
                <form onSubmit={submitResolve}>
                  <SelectField
                    label={t`Outcome`}
                    value={outcome}
                    onChange={(event) => setOutcome(event.target.value as CaseOutcome)}
                  >
                    {CASE_OUTCOMES.map((code) => (
                      <option key={code} value={code}>
                        {i18n._(CASE_OUTCOME_LABELS[code])}
                      </option>
                    ))}
                  </SelectField>
                  <TextAreaField
                    label={t`What happened`}
                    hint={outcome === 'other' ? t`Required for Other.` : t`Optional.`}
                    value={resolution}
                    maxLength={CASE_NOTE_MAX_LENGTH}
                    rows={3}
                    onChange={(event) => setResolution(event.target.value)}
                  />
                  <Button type="submit" disabled={change.isPending}>
                    <Trans>Resolve case</Trans>
                  </Button>
                </form>
              </div>
            </Card>
          )}
          {!open && (
            <Card className={styles.section}>
              <h2>
                <Trans>Reopen this case</Trans>
              </h2>
              <form onSubmit={submitReopen}>
                <TextAreaField
                  label={t`Why reopen`}
                  hint={t`Optional; kept in the trail.`}
                  value={reopenReason}
                  maxLength={CASE_NOTE_MAX_LENGTH}
                  rows={3}
                  onChange={(event) => setReopenReason(event.target.value)}
                />
                <Button type="submit" variant="secondary" disabled={change.isPending}>
                  <Trans>Reopen case</Trans>
                </Button>
              </form>
            </Card>
          )}
          <Card className={styles.section}>
            <h2>
              <Trans>Mail about this case</Trans>
            </h2>
            {item.mails.length === 0 ? (
              <p className={styles.muted}>
                <Trans>No alert or escalation mail.</Trans>
              </p>
            ) : (
              <ul className={styles.trail}>
                {item.mails.map((mail) => (
                  <li key={`${mail.kind}-${mail.to}-${mail.queued_at}`}>
                    <MailHeading kind={mail.kind} recipient={mail.to} />
                    <div className={styles.muted}>
                      <MailStatus status={mail.status} />
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
            <Link to="/cases/">
              <Trans>Back to all cases</Trans>
            </Link>
          </p>
        </div>
      </div>
    </>
  );
}

/** Where a mail stands; a state this screen does not know yet is shown by its code. */
function MailStatus({ status }: { status: string }) {
  const { i18n } = useLingui();
  const label = MAIL_STATUS[status];
  return label ? i18n._(label) : status;
}

/** Which mail went to whom. */
function MailHeading({ kind, recipient }: { kind: string; recipient: string }) {
  return kind === 'alert' ? (
    <Trans>
      <strong>Alert</strong> to {recipient}
    </Trans>
  ) : (
    <Trans>
      <strong>Escalation</strong> to {recipient}
    </Trans>
  );
}
