import { useMutation } from '@tanstack/react-query';
import { type FormEvent, useId, useRef, useState } from 'react';
import {
  ANSWER_CHOICE_MAX_LENGTH,
  type AnswerChoices,
  LIKERT_VALUES,
  type LikertValue,
  type NewQuestionRequest,
  QUESTION_TEXT_MAX_LENGTH,
  type QuestionCategory,
  QuestionType,
} from '../../../common/schemas/templates';
import { Button } from '../../ui/Button';
import { SelectField, TextAreaField, TextField } from '../../ui/Field';
import {
  CATEGORIES_BY_TYPE,
  CATEGORY_LABELS,
  LIKERT_DEFAULT_LABELS,
  QUESTION_TYPE_LABELS,
} from './questionOptions';
import styles from './Templates.module.css';
import type { ShowFlash } from './TemplatesScreen';
import { addQuestion, failureMessage } from './templatesApi';

export const QUESTION_TEXT_REQUIRED = 'Question text is required.';
export const ORDER_INVALID = 'Order must be a whole number of at least 1.';

type Choices = Record<LikertValue, string>;

interface Draft {
  text: string;
  type: QuestionType;
  category: QuestionCategory;
  order: string;
  choices: Choices;
}

const BLANK_CHOICES: Choices = { '1': '', '2': '', '3': '', '4': '', '5': '' };

/** Spec section 4: after a successful add the form returns to likert, general, order 1, blank choices. */
const EMPTY_DRAFT: Draft = {
  text: '',
  type: 'likert',
  category: 'general',
  order: '1',
  choices: BLANK_CHOICES,
};

interface Errors {
  text?: string;
  order?: string;
}

function validate(draft: Draft): Errors {
  const errors: Errors = {};
  if (!draft.text.trim()) errors.text = QUESTION_TEXT_REQUIRED;
  const order = draft.order.trim();
  if (!/^\d+$/.test(order) || Number(order) < 1) errors.order = ORDER_INVALID;
  return errors;
}

/** Only the custom answers actually written are sent, and none at all when every one is blank. */
function answerChoicesOf(draft: Draft): AnswerChoices | undefined {
  if (draft.type !== 'likert') return undefined;
  const given = LIKERT_VALUES.flatMap((value) => {
    const text = draft.choices[value].trim();
    return text ? [[value, text] as const] : [];
  });
  return given.length > 0 ? Object.fromEntries(given) : undefined;
}

function requestOf(draft: Draft): NewQuestionRequest {
  const answerChoices = answerChoicesOf(draft);
  return {
    question_text: draft.text.trim(),
    question_type: draft.type,
    question_category: draft.category,
    order: Number(draft.order.trim()),
    ...(answerChoices ? { answer_choices: answerChoices } : {}),
  };
}

interface AddQuestionFormProps {
  templateId: number;
  showFlash: ShowFlash;
  onAdded: () => void;
}

export function AddQuestionForm({ templateId, showFlash, onAdded }: AddQuestionFormProps) {
  const [draft, setDraft] = useState<Draft>(EMPTY_DRAFT);
  const [errors, setErrors] = useState<Errors>({});
  const formRef = useRef<HTMLFormElement>(null);
  const textErrorId = useId();
  const orderErrorId = useId();

  const add = useMutation({
    mutationFn: (request: NewQuestionRequest) => addQuestion(templateId, request),
    onSuccess: ({ message }) => {
      setDraft(EMPTY_DRAFT);
      setErrors({});
      showFlash(message);
    },
    onError: (error) =>
      showFlash(failureMessage(error, 'Failed to add question.', 'Error adding question.'), 'error'),
    onSettled: onAdded,
  });

  function update(change: Partial<Draft>) {
    setDraft((current) => ({ ...current, ...change }));
    // A corrected field stops being reported as soon as it is valid.
    setErrors((current) => {
      const next = validate({ ...draft, ...change });
      return { text: current.text && next.text, order: current.order && next.order };
    });
  }

  function changeType(value: string) {
    const type = QuestionType.parse(value);
    // Spec section 4: a new type starts again from the general category.
    update({ type, category: 'general' });
  }

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (add.isPending) return;
    const found = validate(draft);
    setErrors(found);
    const firstInvalid = found.text ? 'question_text' : found.order ? 'order' : null;
    if (firstInvalid) {
      formRef.current?.querySelector<HTMLElement>(`[name="${firstInvalid}"]`)?.focus();
      return;
    }
    add.mutate(requestOf(draft));
  }

  return (
    <form
      ref={formRef}
      className={styles.addForm}
      onSubmit={submit}
      noValidate
      aria-labelledby="add-question-heading"
    >
      <h3 id="add-question-heading">Add New Question</h3>

      <div>
        <TextAreaField
          label="Question Text"
          name="question_text"
          rows={3}
          required
          maxLength={QUESTION_TEXT_MAX_LENGTH}
          value={draft.text}
          onChange={(event) => update({ text: event.currentTarget.value })}
          aria-invalid={errors.text ? true : undefined}
          aria-describedby={errors.text ? textErrorId : undefined}
        />
        {errors.text && (
          <p id={textErrorId} className={styles.fieldError}>
            {errors.text}
          </p>
        )}
      </div>

      <div className={styles.formRow}>
        <SelectField
          label="Question Type"
          name="question_type"
          value={draft.type}
          onChange={(event) => changeType(event.currentTarget.value)}
        >
          {QuestionType.options.map((type) => (
            <option key={type} value={type}>
              {QUESTION_TYPE_LABELS[type]}
            </option>
          ))}
        </SelectField>
        <SelectField
          label="Category"
          name="question_category"
          value={draft.category}
          onChange={(event) => update({ category: event.currentTarget.value as QuestionCategory })}
          hint={draft.type === 'text' ? 'Text questions are always general.' : undefined}
        >
          {CATEGORIES_BY_TYPE[draft.type].map((category) => (
            <option key={category} value={category}>
              {CATEGORY_LABELS[category]}
            </option>
          ))}
        </SelectField>
        <div>
          <TextField
            label="Order"
            name="order"
            type="number"
            inputMode="numeric"
            min={1}
            step={1}
            required
            value={draft.order}
            onChange={(event) => update({ order: event.currentTarget.value })}
            aria-invalid={errors.order ? true : undefined}
            aria-describedby={errors.order ? orderErrorId : undefined}
          />
          {errors.order && (
            <p id={orderErrorId} className={styles.fieldError}>
              {errors.order}
            </p>
          )}
        </div>
      </div>

      {draft.type === 'likert' && (
        <fieldset className={styles.choicesFieldset}>
          <legend>Custom Answer Choices (optional)</legend>
          <p className={styles.muted}>
            Replace the label students see for a value; leave blank to keep the default. Emojis stay the same.
          </p>
          <div className={styles.choicesGrid}>
            {LIKERT_VALUES.map((value) => (
              <TextField
                key={value}
                label={`${value} (${LIKERT_DEFAULT_LABELS[value]})`}
                name={`answer_choice_${value}`}
                placeholder={LIKERT_DEFAULT_LABELS[value]}
                maxLength={ANSWER_CHOICE_MAX_LENGTH}
                value={draft.choices[value]}
                onChange={(event) => {
                  const text = event.currentTarget.value;
                  setDraft((current) => ({ ...current, choices: { ...current.choices, [value]: text } }));
                }}
              />
            ))}
          </div>
        </fieldset>
      )}

      <div>
        <Button type="submit" disabled={add.isPending}>
          Add Question
        </Button>
      </div>
    </form>
  );
}
