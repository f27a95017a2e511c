import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { INSTRUMENT_IDS, INSTRUMENTS, type InstrumentId } from '../../../common/instruments';
import {
  type AnswerChoices,
  type InstrumentBlock,
  isInstrumentBlock,
  LIKERT_LABELS,
  LIKERT_VALUES,
  type ListedQuestion,
  type ListedTemplateQuestion,
  type TemplateSummary,
} from '../../../common/schemas/templates';
import { Button } from '../../ui/Button';
import { type Confirmation, ConfirmDialog } from '../../ui/ConfirmDialog';
import { SelectField } from '../../ui/Field';
import { LoadError } from '../../ui/LoadError';
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

const DELETE_QUESTION_CONFIRMATION = 'Are you sure you want to delete this question?';

interface QuestionEditorProps {
  template: TemplateSummary;
  showFlash: ShowFlash;
  onClose: () => void;
  /** Questions changed: the template list (question counts) and the dashboard need a refresh. */
  onQuestionsChanged: () => void;
}

/** The questions of one template, with delete, and the Add New Question form (spec section 2). */
export function QuestionEditor({ template, showFlash, onClose, onQuestionsChanged }: QuestionEditorProps) {
  const queryClient = useQueryClient();
  const headingRef = useRef<HTMLHeadingElement>(null);
  const [confirmation, setConfirmation] = useState<Confirmation | null>(null);
  const [focusAfterMove, setFocusAfterMove] = useState<{ blockId: number; direction: MoveDirection } | null>(
    null,
  );
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
      showFlash(failureMessage(error, 'Failed to delete question.', 'Error deleting question.'), 'error'),
    onSettled: refresh,
  });

  const move = useMutation({
    mutationFn: async ({ block, direction }: { block: InstrumentBlock; direction: MoveDirection }) => {
      for (const change of moveChanges(questions.data ?? [], block.id, direction))
        await moveQuestion(template.id, change.questionId, change.order);
    },
    onSuccess: (_, { block, direction }) => showFlash(`${block.name} moved ${direction}.`),
    onError: (error) =>
      showFlash(
        failureMessage(error, 'Failed to move the instrument.', 'Error moving the instrument.'),
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
    setConfirmation({
      title: `Delete question Q${question.order}?`,
      text: DELETE_QUESTION_CONFIRMATION,
      confirmLabel: 'Delete Question',
      confirmVariant: 'danger',
      onConfirm: () => remove.mutate(question.id),
    });
  }

  return (
    <section className={styles.editor} aria-labelledby="question-editor-heading">
      <div className={styles.editorHeading}>
        <h2 id="question-editor-heading" ref={headingRef} tabIndex={-1}>
          Questions of Template #{template.id}
          {template.used && <span className={styles.badge}>Currently Used</span>}
        </h2>
        <Button variant="ghost" size="small" onClick={onClose}>
          Close Editor
        </Button>
      </div>

      {questions.isPending ? (
        <p className={styles.muted} role="status">
          Loading questions...
        </p>
      ) : questions.isError ? (
        <LoadError
          message={failureMessage(questions.error, 'Failed to load questions.', 'Error loading questions.')}
          onRetry={() => void questions.refetch()}
        />
      ) : questions.data.length === 0 ? (
        <p className={styles.empty}>This template has no questions yet. Add the first one below.</p>
      ) : (
        <ol className={styles.questionList} aria-label={`Questions of Template #${template.id}`}>
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
  const custom = question.question_type === 'likert' ? customAnswers(question.answer_choices) : [];
  const number = `Q${question.order}`;

  return (
    <li className={styles.question}>
      <span className={styles.questionNumber}>{number}</span>
      <div className={styles.questionBody}>
        <p className={styles.questionText}>{question.question_text}</p>
        <dl className={styles.questionMeta}>
          <div>
            <dt>Type</dt>
            <dd>{question.question_type === 'likert' ? 'Likert scale' : 'Text'}</dd>
          </div>
          <div>
            <dt>Category</dt>
            <dd>{CATEGORY_LABELS[question.category]}</dd>
          </div>
        </dl>
        {custom.length > 0 && (
          <div className={styles.customAnswers}>
            <p className={styles.customAnswersTitle}>Custom answers</p>
            <ul>
              {custom.map(({ value, text }) => (
                <li key={value}>
                  <span className={styles.choiceValue}>
                    {value} ({LIKERT_LABELS[value]})
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
        Delete<span className="visually-hidden"> question {number}</span>
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
  return (
    <li className={styles.question}>
      <span className={styles.questionNumber}>{number}</span>
      <div className={styles.questionBody}>
        <p className={styles.questionText}>{block.name}</p>
        <dl className={styles.questionMeta}>
          <div>
            <dt>Type</dt>
            <dd>
              Validated instrument, locked ({instrument.items.length + instrument.conditionalItems.length}{' '}
              items)
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
            Move {direction}
            <span className="visually-hidden"> instrument {number}</span>
          </Button>
        ))}
        <Button
          variant="secondary"
          size="small"
          onClick={onDelete}
          disabled={deleting}
          className={styles.dangerQuiet}
        >
          Delete<span className="visually-hidden"> instrument {number}</span>
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
  const [instrumentId, setInstrumentId] = useState<InstrumentId>('phq9');
  const add = useMutation({
    mutationFn: () => addInstrumentBlock(templateId, { instrument_id: instrumentId, order: nextOrder }),
    onSuccess: ({ message }) => {
      showFlash(message);
      onAdded();
    },
    onError: (error) =>
      showFlash(
        failureMessage(error, 'Failed to add the instrument.', 'Error adding the instrument.'),
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
      <h3 id="add-instrument-heading">Add a Validated Instrument</h3>
      <p className={styles.muted}>
        Added whole, after the other questions, with the publisher's wording and scale, which cannot be
        edited.
      </p>
      <SelectField
        label="Instrument"
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
          Add Instrument
        </Button>
      </div>
    </form>
  );
}
