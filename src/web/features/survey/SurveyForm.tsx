import type { MessageDescriptor } from '@lingui/core';
import { msg, plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useQueryClient } from '@tanstack/react-query';
import {
  type FormEvent,
  lazy,
  Suspense,
  useCallback,
  useEffect,
  useId,
  useMemo,
  useRef,
  useState,
} from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import type { ItemAnswer } from '../../../common/instruments/types';
import type { CurrentUser } from '../../../common/schemas/auth';
import type {
  DraftContent,
  SavedDraft,
  SubmitSurveyResponse,
  SurveyEntry,
} from '../../../common/schemas/surveys';
import {
  EMAIL_MAX_LENGTH,
  isSurveyInstrument,
  STUDENT_NAME_MAX_LENGTH,
  SUBMIT_MESSAGES,
} from '../../../common/schemas/values';
import { errorMessage, hasErrorCode, successMessage } from '../../api';
import { i18n, needCatalogues } from '../../app/i18n';
import { Button, ButtonLink } from '../../ui/Button';
import { TextField } from '../../ui/Field';
import { Flash, useFlash } from '../../ui/Flash';
import { Modal } from '../../ui/Modal';
import { loginPathFor } from '../auth/loginPath';
import { CURRENT_USER_QUERY_KEY } from '../auth/useCurrentUser';
import { CrisisSupport } from '../crisis/CrisisSupport';
import { keepProofToken, startVerification } from '../verify/verifyApi';
import {
  type AnswerMap,
  answersFitting,
  answersForSubmit,
  hasAnswers,
  mergeAnswers,
  unansweredQuestionIds,
  withAnswer,
  withItemAnswer,
} from './answers';
import { ContactOffer } from './ContactOffer';
import { InstrumentField } from './InstrumentField';
import { PrivacyNote, type SurveyIdentity, SurveyKind } from './PrivacyNote';
import { QuestionField, questionBlockId } from './QuestionField';
import { restoreSurvey } from './restore';
import styles from './Survey.module.css';
import { SurveyFrame } from './SurveyFrame';
import { removeLocalDraft, storePendingAnswers, writeLocalDraft } from './storage';
import { newSubmissionId } from './submissionId';
import { clearDraftAndVerify, requiresAuth, submitInvitationSurvey, submitSurvey } from './surveyApi';
import { type AutosaveFailure, useAutosave } from './useAutosave';

/**
 * The step that takes an emailed code shows only after a submit the server wants proven, never in
 * a survey's first paint: its code comes then, with the sign-in screens' (vite.config.ts), rather
 * than in what every page loads, and so do its messages, which the survey's catalogue does not hold.
 */
const CodeStep = lazy(() =>
  Promise.all([import('../verify/CodeStep'), needCatalogues(['sign-in'])]).then(([module]) => ({
    default: module.CodeStep,
  })),
);

/** Spec section 9: the pause between a successful submit and the way home. */
const SUBMIT_REDIRECT_DELAY_MS = 3000;

const MISSING_ANSWERS_MESSAGE = msg`Please fill in all required fields`;
const SUBMIT_FAILED_MESSAGE = msg`Survey submission failed`;
const START_FRESH_CONFIRMATION = msg`Are you sure you want to start over? This will clear all your answers.`;

/** The server's thanks (common/schemas/values.ts: SUBMIT_MESSAGES), as a reader of the page's language reads them. */
const SUBMIT_MESSAGE_TRANSLATIONS: Record<string, MessageDescriptor> = {
  [SUBMIT_MESSAGES.submitted]: msg`Thank you! Your responses have been submitted.`,
  [SUBMIT_MESSAGES.received]: msg`Thank you! Your responses have been received.`,
  [SUBMIT_MESSAGES.confirmAddress]: msg`Thank you! Your responses have been received. Confirm your email address with the code we send you, so they count as yours.`,
};

/** What a submission's answer says, in the page's language (the server's words in its own). */
function submitMessage(server: string): string {
  const translation =
    SUBMIT_MESSAGE_TRANSLATIONS[server] ?? msg`Thank you! Your responses have been received.`;
  return successMessage(server, i18n._(translation));
}

type Phase = 'restoring' | 'filling' | 'submitting' | 'submitted';

interface SurveyFormProps {
  questions: readonly SurveyEntry[];
  templateId: number;
  hashLink: string | undefined;
  user: CurrentUser | null;
  /**
   * A personal invitation link (design section 10): the survey is answered as the student it was
   * mailed to, whose address the link proves, so their name and email are fixed and no code is asked.
   */
  invitation?: { token: string; name: string; email: string; anonymous: boolean };
  /** Loads the survey again after the server said it changed; new `questions` follow. */
  onSurveyChanged: () => Promise<void>;
}

const NAME_FIELD = 'student_name';
const EMAIL_FIELD = 'school_email';

function formatTime(date: Date, locale: string): string {
  return date.toLocaleTimeString(locale, { hour: 'numeric', minute: '2-digit' });
}

/** Moves keyboard focus into a block of the form (a question, or a name/email field). */
function focusWithin(form: HTMLFormElement | null, selector: string) {
  const target = form?.querySelector<HTMLElement>(selector);
  target?.focus();
}

/**
 * Where the answers are kept, under the Submit button. When saving to the server fails it says
 * so, and that the answers are still in this browser tab; when the session has ended it also
 * offers the way back in, which brings the answers along.
 */
function DraftNote({
  serverDrafts,
  savedAt,
  failure,
  onLogIn,
}: {
  serverDrafts: boolean;
  savedAt: Date | null;
  failure: AutosaveFailure | null;
  onLogIn: () => void;
}) {
  const { t, i18n } = useLingui();
  if (!serverDrafts) {
    return (
      <p className={styles.draftNote}>
        <Trans>Your answers are kept in this browser tab until you submit.</Trans>
      </p>
    );
  }
  if (failure === 'session-ended') {
    return (
      <div className={styles.saveProblem} role="alert">
        <p>
          <Trans>
            <strong>Saving stopped: your session has ended.</strong> Your answers are still kept in this
            browser tab. Log in again to continue where you left off.
          </Trans>
        </p>
        <Button variant="secondary" size="small" onClick={onLogIn}>
          <Trans>Log in again</Trans>
        </Button>
      </div>
    );
  }
  if (failure === 'stale') {
    return (
      <div className={styles.saveProblem} role="alert">
        <p>
          <Trans>
            <strong>Saving stopped: this survey was submitted or started afresh in another window.</strong>{' '}
            These answers are no longer saved. Reload the survey to start again.
          </Trans>
        </p>
        <Button variant="secondary" size="small" onClick={() => window.location.reload()}>
          <Trans>Reload the survey</Trans>
        </Button>
      </div>
    );
  }
  if (failure === 'failed') {
    return (
      <p className={styles.saveProblem} role="alert">
        <Trans>
          <strong>Saving failed: your latest answers could not be saved to the server.</strong> They are still
          kept in this browser tab: keep it open, and saving will be tried again every few seconds. You can
          also submit when you are done.
        </Trans>
      </p>
    );
  }
  const time = savedAt ? formatTime(savedAt, i18n.locale) : '';
  return (
    <p className={styles.draftNote}>
      {savedAt
        ? t`Your answers are saved as you go. Last saved at ${time}.`
        : t`Your answers are saved as you go, so you can finish later.`}
    </p>
  );
}

/** What the student is told when the survey changed while they had it open. */
function surveyChangedMessage(added: number): MessageDescriptor {
  if (added === 0) {
    return msg`This survey was updated while you had it open. Your answers are kept: please check them and submit again.`;
  }
  return msg`${plural(added, {
    one: 'This survey was updated while you had it open. A new question has been added, marked "New". Your answers are kept: answer it and submit again.',
    other:
      'This survey was updated while you had it open. # new questions have been added, marked "New". Your answers are kept: answer them and submit again.',
  })}`;
}

export function SurveyForm({
  questions,
  templateId,
  hashLink,
  user,
  invitation,
  onSurveyChanged,
}: SurveyFormProps) {
  const { t, i18n } = useLingui();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { pathname } = useLocation();
  const resultHeadingId = useId();
  const crisisHeadingId = useId();
  const formRef = useRef<HTMLFormElement>(null);
  const resultRef = useRef<HTMLElement>(null);

  const isStaff = Boolean(user && user.role !== 'student');
  // Logged-in students keep drafts on the server; everyone keeps a copy in this tab.
  const serverDrafts = user !== null && !isStaff;

  const [phase, setPhase] = useState<Phase>('restoring');
  const [answers, setAnswers] = useState<AnswerMap>({});
  const [typedName, setTypedName] = useState('');
  const [typedEmail, setTypedEmail] = useState('');
  const [checked, setChecked] = useState(false);
  const [serverError, setServerError] = useState<string | null>(null);
  const [result, setResult] = useState<SubmitSurveyResponse | null>(null);
  /** Design section 8: on a link, the answers count once the address is proven with its code. */
  const [awaitingCode, setAwaitingCode] = useState(false);
  const [confirmedMessage, setConfirmedMessage] = useState<string | null>(null);
  const [confirmingStartFresh, setConfirmingStartFresh] = useState(false);
  const [focusTarget, setFocusTarget] = useState<string | null>(null);
  /** Set when the survey's questions changed under the student; `added` are the new ones. */
  const [surveyChange, setSurveyChange] = useState<{ added: ReadonlySet<number> } | null>(null);
  const shownQuestionIds = useRef<ReadonlySet<number>>(new Set(questions.map(({ id }) => id)));
  const { flash, showFlash } = useFlash();
  const submissionId = useRef(newSubmissionId());
  const submitInProgress = useRef(false);

  const studentName = invitation ? invitation.name : user ? user.name : typedName;
  const schoolEmail = invitation ? invitation.email : user ? user.email : typedEmail;
  /** Whether name and email are given (an account or an invitation) rather than typed. */
  const identityGiven = user !== null || invitation !== undefined;
  const identity: SurveyIdentity = invitation
    ? invitation.anonymous
      ? 'anonymous'
      : 'invitation'
    : user
      ? 'account'
      : 'typed';
  const draft = useMemo<DraftContent>(
    () => ({ template_id: templateId, student_name: studentName, school_email: schoolEmail, answers }),
    [templateId, studentName, schoolEmail, answers],
  );
  // Another window saved answers meanwhile: keep both (this window's changes win a tie).
  const onDraftConflict = useCallback(
    (base: AnswerMap, theirs: SavedDraft) => {
      setAnswers((current) => mergeAnswers(base, current, answersFitting(questions, theirs.answers)));
      showFlash(t`Answers saved in another window have been added here.`, 'info');
    },
    [questions, showFlash, t],
  );
  const autosave = useAutosave({
    enabled: serverDrafts && phase === 'filling',
    draft,
    onConflict: onDraftConflict,
  });
  const { markSaved } = autosave;

  // Restore once: answers kept across a login, else the newest draft (spec sections 4 and 7).
  // The form is shown meanwhile (the server renders it, to be read and answered at once): what
  // the student chose before the draft arrived stays, the draft fills in the rest.
  const restoreStarted = useRef(false);
  useEffect(() => {
    if (restoreStarted.current) return;
    restoreStarted.current = true;
    void restoreSurvey({ questions, templateId, user, serverDrafts }).then((restored) => {
      setAnswers((chosen) => ({ ...restored.answers, ...chosen }));
      if (!user) {
        setTypedName((typed) => typed || restored.studentName);
        setTypedEmail((typed) => typed || restored.schoolEmail);
      }
      if (restored.source === 'server' && user) {
        markSaved(
          {
            template_id: templateId,
            student_name: user.name,
            school_email: user.email,
            answers: restored.answers,
          },
          restored.savedAt,
        );
      }
      if (restored.source !== 'none' && hasAnswers(restored.answers)) {
        showFlash(t`Your saved answers have been restored.`, 'info');
      }
      setPhase('filling');
    });
  }, [questions, templateId, user, serverDrafts, markSaved, showFlash, t]);

  // This tab's copy of the draft follows every change until the survey is submitted.
  // Not once the draft was submitted or cleared in another window: it must not come back.
  const draftGone = autosave.failure === 'stale';
  useEffect(() => {
    if (phase !== 'filling') return;
    if (hasAnswers(draft.answers) && !draftGone) writeLocalDraft(draft);
    else removeLocalDraft(draft.template_id);
  }, [draft, phase, draftGone]);

  const urgent = result?.crisis_resources !== undefined;
  useEffect(() => {
    if (phase !== 'submitted') return;
    // Start the reader at the top of the result: the crisis panel is taller than a phone's
    // screen, and focus() alone would scroll to its middle, past the thank-you and the heading.
    resultRef.current?.scrollIntoView({ block: 'start' });
    resultRef.current?.focus({ preventScroll: true });
  }, [phase]);

  useEffect(() => {
    // Design section 5: a student shown where to get help is never moved on automatically; nor is
    // one still asked for the code.
    // Nor one offered a counsellor's contact: the offer must stay on screen to be taken up.
    if (phase !== 'submitted' || urgent || awaitingCode || result?.contact_token) return;
    const timer = window.setTimeout(() => navigate('/'), SUBMIT_REDIRECT_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, [phase, urgent, awaitingCode, result?.contact_token, navigate]);

  useEffect(() => {
    if (!focusTarget) return;
    focusWithin(formRef.current, focusTarget);
    setFocusTarget(null);
  }, [focusTarget]);

  // The questions changed while the survey was open (a submit found out, and they were loaded
  // again): say so, mark what is new, keep every answer, and bring the student to the first gap.
  useEffect(() => {
    const before = shownQuestionIds.current;
    const now = new Set(questions.map(({ id }) => id));
    shownQuestionIds.current = now;
    const added = questions.filter(({ id }) => !before.has(id)).map(({ id }) => id);
    const removed = [...before].some((id) => !now.has(id));
    if (added.length === 0 && !removed) return;
    setSurveyChange((current) => ({ added: new Set([...(current?.added ?? []), ...added]) }));
    setServerError(null);
    setChecked(true);
    const firstNew = added[0];
    if (firstNew !== undefined) setFocusTarget(`#${questionBlockId(firstNew)} :is(input, textarea)`);
  }, [questions]);

  const locked = phase === 'submitted';
  const unanswered = unansweredQuestionIds(questions, answers);
  const missingAnswers = checked ? new Set(unanswered) : new Set<number>();
  const nameMissing = checked && !identityGiven && studentName.trim() === '';
  const emailMissing = checked && !identityGiven && schoolEmail.trim() === '';
  const showMissingMessage = missingAnswers.size > 0 || nameMissing || emailMissing;
  const questionCount = questions.length;
  const answeredCount = questionCount - unanswered.length;

  const onAnswer = useCallback((questionId: number, value: string) => {
    setAnswers((current) => withAnswer(current, questionId, value));
  }, []);
  const instrumentOf = useMemo(
    () => new Map(questions.filter(isSurveyInstrument).map((block) => [block.id, block.instrument])),
    [questions],
  );
  const onItemAnswer = useCallback(
    (questionId: number, itemId: string, value: ItemAnswer) => {
      const instrument = instrumentOf.get(questionId);
      if (!instrument) return;
      setAnswers((current) => withItemAnswer(current, questionId, instrument, itemId, value));
    },
    [instrumentOf],
  );

  /** Keeps the answers for after a login (spec section 4) and goes to the login page. */
  function keepAnswersAndLogIn() {
    storePendingAnswers({
      path: pathname,
      template_id: templateId,
      student_name: studentName,
      school_email: schoolEmail,
      answers: { ...answers },
    });
    // The server says nobody is signed in here: a cached user would send the login page straight back.
    queryClient.setQueryData(CURRENT_USER_QUERY_KEY, null);
    navigate(loginPathFor(pathname));
  }

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (submitInProgress.current || phase !== 'filling' || isStaff) return;
    setServerError(null);

    const firstUnanswered = unanswered[0];
    const identityIncomplete = !identityGiven && (studentName.trim() === '' || schoolEmail.trim() === '');
    if (firstUnanswered !== undefined || identityIncomplete) {
      setChecked(true);
      if (!identityGiven && studentName.trim() === '') setFocusTarget(`[name="${NAME_FIELD}"]`);
      else if (!identityGiven && schoolEmail.trim() === '') setFocusTarget(`[name="${EMAIL_FIELD}"]`);
      else setFocusTarget(`#${questionBlockId(firstUnanswered ?? 0)} :is(input, textarea)`);
      return;
    }

    submitInProgress.current = true;
    setPhase('submitting');
    const request = {
      survey_template_id: templateId,
      student_name: studentName.trim(),
      school_email: schoolEmail.trim(),
      answers: answersForSubmit(questions, answers),
      submission_id: submissionId.current,
      // The language the questions were shown in: each answer records it.
      language: i18n.locale,
    };
    // An autosave landing after the submit would bring back the draft the submit clears.
    await autosave.settle();
    try {
      const response = invitation
        ? await submitInvitationSurvey(invitation.token, request)
        : await submitSurvey(hashLink, request);
      if (response.verification_required) {
        // The answers are stored; this tab keeps its copy, and their secret for the proof, until
        // the address is proven.
        if (response.proof_token) keepProofToken(request.school_email, response.proof_token);
        setAwaitingCode(true);
        startVerification({
          email: request.school_email,
          ...(hashLink ? { hash_link: hashLink } : {}),
        }).catch((error: unknown) => console.error('Could not send the code', error));
      } else {
        removeLocalDraft(templateId);
      }
      setResult(response);
      setPhase('submitted');
    } catch (error) {
      submitInProgress.current = false;
      if (requiresAuth(error)) {
        keepAnswersAndLogIn();
        return;
      }
      setServerError(errorMessage(error, i18n._(SUBMIT_FAILED_MESSAGE)));
      setPhase('filling');
      if (hasErrorCode(error, 'CONFLICT')) {
        // The survey changed since it was loaded: load it again; the new questions show up here.
        await onSurveyChanged().catch((reloadError: unknown) =>
          console.error('Could not load the changed survey', reloadError),
        );
      }
    }
  }

  async function startFresh() {
    setConfirmingStartFresh(false);
    setAnswers({});
    setChecked(false);
    setServerError(null);
    removeLocalDraft(templateId);
    submissionId.current = newSubmissionId();
    const firstQuestion = questions[0];
    if (firstQuestion) setFocusTarget(`#${questionBlockId(firstQuestion.id)} :is(input, textarea)`);
    showFlash(t`Your answers have been cleared.`, 'info');
    if (serverDrafts) {
      await autosave.settle();
      autosave.reset();
      await clearDraftAndVerify(templateId);
    }
  }

  const startFreshButton =
    hasAnswers(answers) && phase === 'filling' ? (
      <Button variant="secondary" size="small" onClick={() => setConfirmingStartFresh(true)}>
        <Trans>Start fresh</Trans>
      </Button>
    ) : null;

  return (
    <SurveyFrame viaLink={hashLink !== undefined} actions={startFreshButton}>
      <SurveyKind identity={identity} />
      {phase !== 'submitted' && (
        <p className={styles.intro}>
          <Trans>
            A short check-in on how you have been doing lately. Choose the answer that fits best for each
            question; there are no right or wrong answers.
          </Trans>
        </p>
      )}
      <Flash flash={flash} />

      {result && (
        <section className={styles.result} ref={resultRef} tabIndex={-1} aria-labelledby={resultHeadingId}>
          <div className={styles.success}>
            <svg className={styles.successIcon} viewBox="0 0 24 24" aria-hidden="true" focusable="false">
              <circle cx="12" cy="12" r="11" fill="currentColor" />
              <path
                d="M7 12.5l3.2 3.2L17 9"
                fill="none"
                stroke="#fff"
                strokeWidth="2.4"
                strokeLinecap="round"
              />
            </svg>
            <div>
              <h2 id={resultHeadingId} className={styles.successHeading}>
                {submitMessage(result.message)}
              </h2>
              <p className={styles.successText}>
                <Trans>We appreciate you taking the time to check in.</Trans>
              </p>
              {confirmedMessage && <p className={styles.successText}>{confirmedMessage}</p>}
              {!urgent && !awaitingCode && !result.contact_token && (
                <p className={styles.successText}>
                  <Trans>
                    Taking you to the homepage... <Link to="/">Go now</Link>
                  </Trans>
                </p>
              )}
            </div>
          </div>
          {result.crisis_resources && (
            <CrisisSupport help={result.crisis_resources} headingId={crisisHeadingId}>
              <ButtonLink variant="secondary" to="/">
                <Trans>Back to Homepage</Trans>
              </ButtonLink>
            </CrisisSupport>
          )}
          {result.contact_token && <ContactOffer token={result.contact_token} />}
          {awaitingCode && (
            <Suspense fallback={null}>
              <CodeStep
                email={schoolEmail.trim().toLowerCase()}
                hashLink={hashLink}
                purpose={t`Enter it here to confirm this is your address, so your answers count as yours. Your answers are kept in this tab meanwhile.`}
                onConfirmed={(confirmation) => {
                  removeLocalDraft(templateId);
                  setConfirmedMessage(confirmation.message);
                  setAwaitingCode(false);
                }}
              />
            </Suspense>
          )}
        </section>
      )}

      <form ref={formRef} className={styles.form} onSubmit={submit} noValidate>
        {identity !== 'anonymous' && (
          <div className={styles.identity}>
            <TextField
              label={
                <>
                  <Trans>Full Name</Trans>
                  {nameMissing && (
                    <span className={styles.questionError}>
                      <Trans>Please enter your full name.</Trans>
                    </span>
                  )}
                </>
              }
              name={NAME_FIELD}
              autoComplete="name"
              value={studentName}
              onChange={(event) => setTypedName(event.currentTarget.value)}
              readOnly={identityGiven || locked}
              required={!identityGiven}
              maxLength={STUDENT_NAME_MAX_LENGTH}
              aria-invalid={nameMissing || undefined}
            />
            <TextField
              label={
                <>
                  <Trans>School Email</Trans>
                  {emailMissing && (
                    <span className={styles.questionError}>
                      <Trans>Please enter your school email.</Trans>
                    </span>
                  )}
                </>
              }
              name={EMAIL_FIELD}
              type="email"
              autoComplete="email"
              value={schoolEmail}
              onChange={(event) => setTypedEmail(event.currentTarget.value)}
              readOnly={identityGiven || locked}
              required={!identityGiven}
              maxLength={EMAIL_MAX_LENGTH}
              aria-invalid={emailMissing || undefined}
            />
          </div>
        )}

        <div className={styles.questions}>
          {questions.map((question, index) => {
            const value = answers[question.id];
            return isSurveyInstrument(question) ? (
              <InstrumentField
                key={question.id}
                block={question}
                number={index + 1}
                total={questions.length}
                answers={typeof value === 'object' ? value : {}}
                onChange={onItemAnswer}
                disabled={locked}
                missing={missingAnswers.has(question.id)}
                isNew={surveyChange?.added.has(question.id) ?? false}
              />
            ) : (
              <QuestionField
                key={question.id}
                question={question}
                number={index + 1}
                total={questions.length}
                value={typeof value === 'string' ? value : ''}
                onChange={onAnswer}
                disabled={locked}
                missing={missingAnswers.has(question.id)}
                isNew={surveyChange?.added.has(question.id) ?? false}
              />
            );
          })}
        </div>

        <div className={styles.submitArea}>
          <div role="alert" className={styles.alertRegion}>
            {phase !== 'submitted' && surveyChange && (
              <p className={styles.error}>{i18n._(surveyChangedMessage(surveyChange.added.size))}</p>
            )}
            {phase !== 'submitted' && showMissingMessage && !surveyChange && (
              <p className={styles.error}>{i18n._(MISSING_ANSWERS_MESSAGE)}</p>
            )}
            {phase !== 'submitted' && serverError && <p className={styles.error}>{serverError}</p>}
          </div>
          <p className={styles.progressText}>
            <Trans>
              {answeredCount} of {questionCount} questions answered
            </Trans>
          </p>
          {isStaff ? (
            <Button disabled>
              <Trans>Admins cannot submit surveys</Trans>
            </Button>
          ) : phase === 'submitted' ? (
            <Button disabled>
              <Trans>Submitted</Trans>
            </Button>
          ) : (
            <Button type="submit" aria-disabled={phase === 'submitting' || undefined}>
              {phase === 'submitting' ? <Trans>Submitting...</Trans> : <Trans>Submit Survey</Trans>}
            </Button>
          )}
          {phase !== 'submitted' && !isStaff && (
            <DraftNote
              serverDrafts={serverDrafts}
              savedAt={autosave.savedAt}
              failure={autosave.failure}
              onLogIn={keepAnswersAndLogIn}
            />
          )}
        </div>
      </form>

      <PrivacyNote identity={identity} />

      <Modal
        open={confirmingStartFresh}
        title={t`Start fresh?`}
        role="alertdialog"
        onClose={() => setConfirmingStartFresh(false)}
        actions={
          <>
            <Button variant="secondary" onClick={() => setConfirmingStartFresh(false)}>
              <Trans>Cancel</Trans>
            </Button>
            <Button variant="danger" onClick={() => void startFresh()}>
              <Trans>Start fresh</Trans>
            </Button>
          </>
        }
      >
        <p>{i18n._(START_FRESH_CONFIRMATION)}</p>
      </Modal>
    </SurveyFrame>
  );
}
