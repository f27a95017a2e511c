import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { INSTRUMENT_IDS, INSTRUMENTS, type InstrumentId } from '../../../common/instruments';
import {
  type AnswerChoices,
  type InstrumentBlock,
  isInstrumentBlock,
  LIKERT_VALUES,
  type ListedQuestion,
  type ListedTemplateQuestion,
  type TemplateSummary,
} from '../../../common/schemas/templates';
import { Button } from '../../ui/Button';
import { type Confirmation, ConfirmDialog } from '../../ui/ConfirmDialog';
import { SelectField } from '../../ui/Field';
import { LoadError } from '../../ui/LoadError';
import { LIKERT_LABEL_MESSAGES } from '../survey/likert';
import { AddQuestionForm } from './AddQuestionForm';
import { type MoveDirection, moveChanges } from './blockMove';
import { QuestionTranslations } from './QuestionTranslations';
import { CATEGORY_LABELS } from './questionOptions';
import styles from './Templates.module.css';
import type { ShowFlash } from './TemplatesScreen';
import {
  addInstrumentBlock,
  deleteQuestion,
  failureMessage,
  fetchQuestions,
  moveQuestion,
  questionsQueryKey,
} from './templatesApi';

const DELETE_QUESTION_CONFIRMATION = msg`Are you sure you want to delete this question?`;

interface QuestionEditorProps {
  template: TemplateSummary;
  showFlash: ShowFlash;
  onClose: () => void;
  /** Questions changed: the template list (question counts) and the dashboard need a refresh. */
  onQuestionsChanged: () => void;
}

/** The questions of one template, with delete, and the Add New Question form (spec section 2). */
export function QuestionEditor({ template, showFlash, onClose, onQuestionsChanged }: QuestionEditorProps) {
  const { t, i18n } = useLingui();
  const queryClient = useQueryClient();
  const headingRef = useRef<HTMLHeadingElement>(null);
  const [confirmation, setConfirmation] = useState<Confirmation | null>(null);
  const [focusAfterMove, setFocusAfterMove] = useState<{ blockId: number; direction: MoveDirection } | null>(
    null,
  );
  const templateId = template.id;
  const queryKey = questionsQueryKey(template.id);
  const questions = useQuery({ queryKey, queryFn: () => fetchQuestions(template.id) });

  // Opening the editor moves the reader to it; it may be far below the Edit Questions button.
  useEffect(() => {
    headingRef.current?.scrollIntoView({ block: 'start' });
    headingRef.current?.focus({ preventScroll: true });
  }, []);

  function refresh() {
    void queryClient.invalidateQueries({ queryKey });
    onQuestionsChanged();
  }

  const remove = useMutation({
    mutationFn: (questionId: number) => deleteQuestion(template.id, questionId),
    onSuccess: ({ message }) => showFlash(message),
    onError: (error) =>
      showFlash(failureMessage(error, t`Failed to delete question.`, t`Error deleting question.`), 'error'),
    onSettled: refresh,
  });

  const move = useMutation({
    mutationFn: async ({ block, direction }: { block: InstrumentBlock; direction: MoveDirection }) => {
      for (const change of moveChanges(questions.data ?? [], block.id, direction))
        await moveQuestion(template.id, change.questionId, change.order);
    },
    onSuccess: (_, { block, direction }) => {
      const name = block.name;
      showFlash(direction === 'up' ? t`${name} moved up.` : t`${name} moved down.`);
    },
    onError: (error) =>
      showFlash(
        failureMessage(error, t`Failed to move the instrument.`, t`Error moving the instrument.`),
        'error',
      ),
    onSettled: async (_, __, { block, direction }) => {
      onQuestionsChanged();
      await queryClient.invalidateQueries({ queryKey });
      setFocusAfterMove({ blockId: block.id, direction });
    },
  });

  // Once the moved list is on screen, the block's button keeps the keyboard where it was; at an
  // end, where that button is off, the other way's button has it.
  useEffect(() => {
    if (!focusAfterMove) return;
    const { blockId, direction } = focusAfterMove;
    const button = (way: MoveDirection) =>
      document.getElementById(moveButtonId(blockId, way)) as HTMLButtonElement | null;
    const same = button(direction);
    (same && !same.disabled ? same : button(direction === 'up' ? 'down' : 'up'))?.focus();
    setFocusAfterMove(null);
  }, [focusAfterMove]);

  function confirmDelete(question: ListedTemplateQuestion) {
    const order = question.order;
    setConfirmation({
      title: t`Delete question Q${order}?`,
      text: i18n._(DELETE_QUESTION_CONFIRMATION),
      confirmLabel: t`Delete Question`,
      confirmVariant: 'danger',
      onConfirm: () => remove.mutate(question.id),
    });
  }

  return (
    <section className={styles.editor} aria-labelledby="question-editor-heading">
      <div className={styles.editorHeading}>
        <h2 id="question-editor-heading" ref={headingRef} tabIndex={-1}>
          <Trans>Questions of Template #{templateId}</Trans>
          {template.used && (
            <span className={styles.badge}>
              <Trans>Currently Used</Trans>
            </span>
          )}
        </h2>
        <Button variant="ghost" size="small" onClick={onClose}>
          <Trans>Close Editor</Trans>
        </Button>
      </div>

      {questions.isPending ? (
        <p className={styles.muted} role="status">
          <Trans>Loading questions...</Trans>
        </p>
      ) : questions.isError ? (
        <LoadError
          message={failureMessage(questions.error, t`Failed to load questions.`, t`Error loading questions.`)}
          onRetry={() => void questions.refetch()}
        />
      ) : questions.data.length === 0 ? (
        <p className={styles.empty}>
          <Trans>This template has no questions yet. Add the first one below.</Trans>
        </p>
      ) : (
        <ol className={styles.questionList} aria-label={t`Questions of Template #${templateId}`}>
          {questions.data.map((question, index) =>
            isInstrumentBlock(question) ? (
              <InstrumentItem
                key={question.id}
                block={question}
                deleting={remove.isPending && remove.variables === question.id}
                onDelete={() => confirmDelete(question)}
                canMove={{ up: index > 0, down: index < questions.data.length - 1 }}
                onMove={(direction) => {
                  // One move at a time: the next is worked out from the list the last one left.
                  if (!move.isPending) move.mutate({ block: question, direction });
                }}
              />
            ) : (
              <QuestionItem
                key={question.id}
                templateId={template.id}
                question={question}
                deleting={remove.isPending && remove.variables === question.id}
                onDelete={() => confirmDelete(question)}
                showFlash={showFlash}
                onTranslationsChanged={() => void queryClient.invalidateQueries({ queryKey })}
              />
            ),
          )}
        </ol>
      )}

      <AddQuestionForm templateId={template.id} showFlash={showFlash} onAdded={refresh} />
      <AddInstrumentForm
        templateId={template.id}
        nextOrder={Math.max(0, ...(questions.data ?? []).map((question) => question.order)) + 1}
        showFlash={showFlash}
        onAdded={refresh}
      />
      <ConfirmDialog confirmation={confirmation} onClose={() => setConfirmation(null)} />
    </section>
  );
}

function customAnswers(choices: AnswerChoices | null) {
  return LIKERT_VALUES.flatMap((value) => {
    const text = choices?.[value];
    return text ? [{ value, text }] : [];
  });
}

function QuestionItem({
  templateId,
  question,
  deleting,
  onDelete,
  showFlash,
  onTranslationsChanged,
}: {
  templateId: number;
  question: ListedQuestion;
  deleting: boolean;
  onDelete: () => void;
  showFlash: ShowFlash;
  onTranslationsChanged: () => void;
}) {
  const { i18n } = useLingui();
  const custom = question.question_type === 'likert' ? customAnswers(question.answer_choices) : [];
  const number = `Q${question.order}`;

  return (
    <li className={styles.question}>
      <span className={styles.questionNumber}>{number}</span>
      <div className={styles.questionBody}>
        <p className={styles.questionText}>{question.question_text}</p>
        <dl className={styles.questionMeta}>
          <div>
            <dt>
              <Trans>Type</Trans>
            </dt>
            <dd>{question.question_type === 'likert' ? <Trans>Likert scale</Trans> : <Trans>Text</Trans>}</dd>
          </div>
          <div>
            <dt>
              <Trans>Category</Trans>
            </dt>
            <dd>{i18n._(CATEGORY_LABELS[question.category])}</dd>
          </div>
        </dl>
        {custom.length > 0 && (
          <div className={styles.customAnswers}>
            <p className={styles.customAnswersTitle}>
              <Trans>Custom answers</Trans>
            </p>
            <ul>
              {custom.map(({ value, text }) => (
                <li key={value}>
                  <span className={styles.choiceValue}>
                    {value} ({i18n._(LIKERT_LABEL_MESSAGES[value])})
                  </span>{' '}
                  {text}
                </li>
              ))}
            </ul>
          </div>
        )}
        <QuestionTranslations
          templateId={templateId}
          question={question}
          showFlash={showFlash}
          onChanged={onTranslationsChanged}
        />
      </div>
      <Button
        variant="secondary"
        size="small"
        onClick={onDelete}
        disabled={deleting}
        className={`${styles.questionDelete} ${styles.dangerQuiet}`}
      >
        <Trans>
          Delete<span className="visually-hidden"> question {number}</span>
        </Trans>
      </Button>
    </li>
  );
}

function moveButtonId(questionId: number, direction: MoveDirection) {
  return `move-${direction}-${questionId}`;
}

/** A validated instrument: added, moved or removed whole; its wording and scale are the publisher's. */
function InstrumentItem({
  block,
  deleting,
  onDelete,
  canMove,
  onMove,
}: {
  block: InstrumentBlock;
  deleting: boolean;
  onDelete: () => void;
  canMove: Record<MoveDirection, boolean>;
  onMove: (direction: MoveDirection) => void;
}) {
  const number = `Q${block.order}`;
  const instrument = INSTRUMENTS[block.instrument_id];
  const count = instrument.items.length + instrument.conditionalItems.length;
  return (
    <li className={styles.question}>
      <span className={styles.questionNumber}>{number}</span>
      <div className={styles.questionBody}>
        <p className={styles.questionText}>{block.name}</p>
        <dl className={styles.questionMeta}>
          <div>
            <dt>
              <Trans>Type</Trans>
            </dt>
            <dd>
              <Trans>Validated instrument, locked ({count} items)</Trans>
            </dd>
          </div>
        </dl>
      </div>
      <div className={styles.questionActions}>
        {(['up', 'down'] as const).map((direction) => (
          <Button
            key={direction}
            id={moveButtonId(block.id, direction)}
            variant="secondary"
            size="small"
            onClick={() => onMove(direction)}
            disabled={!canMove[direction]}
          >
            {direction === 'up' ? (
              <Trans>
                Move up<span className="visually-hidden"> instrument {number}</span>
              </Trans>
            ) : (
              <Trans>
                Move down<span className="visually-hidden"> instrument {number}</span>
              </Trans>
            )}
          </Button>
        ))}
        <Button
          variant="secondary"
          size="small"
          onClick={onDelete}
          disabled={deleting}
          className={styles.dangerQuiet}
        >
          <Trans>
            Delete<span className="visually-hidden"> instrument {number}</span>
          </Trans>
        </Button>
      </div>
    </li>
  );
}

function AddInstrumentForm({
  templateId,
  nextOrder,
  showFlash,
  onAdded,
}: {
  templateId: number;
  nextOrder: number;
  showFlash: ShowFlash;
  onAdded: () => void;
}) {
  const { t } = useLingui();
  const [instrumentId, setInstrumentId] = useState<InstrumentId>('phq9');
  const add = useMutation({
    mutationFn: () => addInstrumentBlock(templateId, { instrument_id: instrumentId, order: nextOrder }),
    onSuccess: ({ message }) => {
      showFlash(message);
      onAdded();
    },
    onError: (error) =>
      showFlash(
        failureMessage(error, t`Failed to add the instrument.`, t`Error adding the instrument.`),
        'error',
      ),
  });
  return (
    <form
      className={styles.addForm}
      aria-labelledby="add-instrument-heading"
      onSubmit={(event) => {
        event.preventDefault();
        add.mutate();
      }}
    >
      <h3 id="add-instrument-heading">
        <Trans>Add a Validated Instrument</Trans>
      </h3>
      <p className={styles.muted}>
        <Trans>
          Added whole, after the other questions, with the publisher's wording and scale, which cannot be
          edited.
        </Trans>
      </p>
      <SelectField
        label={t`Instrument`}
        name="instrument_id"
        value={instrumentId}
        onChange={(event) => setInstrumentId(event.currentTarget.value as InstrumentId)}
      >
        {INSTRUMENT_IDS.map((id) => (
          <option key={id} value={id}>
            {INSTRUMENTS[id].name}
          </option>
        ))}
      </SelectField>
      <div>
        <Button type="submit" disabled={add.isPending}>
          <Trans>Add Instrument</Trans>
        </Button>
      </div>
    </form>
  );
}
