import { Trans, useLingui } from '@lingui/react/macro';
import { useMutation } from '@tanstack/react-query';
import { type FormEvent, useId, useRef, useState } from 'react';
import {
  ANSWER_CHOICE_MAX_LENGTH,
  LIKERT_VALUES,
  QUESTION_TEXT_MAX_LENGTH,
  QuestionCategory,
  QuestionType,
} from '../../../common/schemas/templates';
import { Button } from '../../ui/Button';
import { SelectField, TextAreaField, TextField } from '../../ui/Field';
import { LIKERT_LABEL_MESSAGES } from '../survey/likert';
import {
  checkQuestionDraft,
  type DraftError,
  EMPTY_QUESTION_DRAFT,
  type NewQuestion,
  type QuestionDraft,
  type QuestionDraftErrors,
} from './questionDraft';
import { CATEGORIES_BY_TYPE, CATEGORY_LABELS, QUESTION_TYPE_LABELS } from './questionOptions';
import styles from './Templates.module.css';
import type { ShowFlash } from './TemplatesScreen';
import { addQuestion, failureMessage } from './templatesApi';

interface AddQuestionFormProps {
  templateId: number;
  showFlash: ShowFlash;
  onAdded: () => void;
}

export function AddQuestionForm({ templateId, showFlash, onAdded }: AddQuestionFormProps) {
  const { t, i18n } = useLingui();
  const [draft, setDraft] = useState<QuestionDraft>(EMPTY_QUESTION_DRAFT);
  const [errors, setErrors] = useState<QuestionDraftErrors>({});
  const formRef = useRef<HTMLFormElement>(null);
  const textErrorId = useId();
  const orderErrorId = useId();

  const add = useMutation({
    mutationFn: (request: NewQuestion) => addQuestion(templateId, request),
    onSuccess: ({ message }) => {
      setDraft(EMPTY_QUESTION_DRAFT);
      setErrors({});
      showFlash(message);
    },
    onError: (error) =>
      showFlash(failureMessage(error, t`Failed to add question.`, t`Error adding question.`), 'error'),
    onSettled: onAdded,
  });

  function update(change: Partial<QuestionDraft>) {
    setDraft((current) => ({ ...current, ...change }));
    // A corrected field stops being reported as soon as it is valid.
    setErrors((current) => {
      const next = checkQuestionDraft({ ...draft, ...change }).errors;
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
    const { request, errors: found } = checkQuestionDraft(draft);
    setErrors(found);
    if (!request) {
      const firstInvalid = found.text ? 'question_text' : found.order ? 'order' : null;
      if (firstInvalid) formRef.current?.querySelector<HTMLElement>(`[name="${firstInvalid}"]`)?.focus();
      if (found.other) showFlash(found.other, 'error');
      return;
    }
    add.mutate(request);
  }

  function errorText(error: DraftError) {
    return typeof error === 'string' ? error : i18n._(error);
  }

  return (
    <form
      ref={formRef}
      className={styles.addForm}
      onSubmit={submit}
      noValidate
      aria-labelledby="add-question-heading"
    >
      <h3 id="add-question-heading">
        <Trans>Add New Question</Trans>
      </h3>

      <div>
        <TextAreaField
          label={t`Question Text`}
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
            {errorText(errors.text)}
          </p>
        )}
      </div>

      <div className={styles.formRow}>
        <SelectField
          label={t`Question Type`}
          name="question_type"
          value={draft.type}
          onChange={(event) => changeType(event.currentTarget.value)}
        >
          {QuestionType.options.map((type) => (
            <option key={type} value={type}>
              {i18n._(QUESTION_TYPE_LABELS[type])}
            </option>
          ))}
        </SelectField>
        <SelectField
          label={t`Category`}
          name="question_category"
          value={draft.category}
          onChange={(event) => update({ category: QuestionCategory.parse(event.currentTarget.value) })}
          hint={draft.type === 'text' ? t`Text questions are always general.` : undefined}
        >
          {CATEGORIES_BY_TYPE[draft.type].map((category) => (
            <option key={category} value={category}>
              {i18n._(CATEGORY_LABELS[category])}
            </option>
          ))}
        </SelectField>
        <div>
          <TextField
            label={t`Order`}
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
              {errorText(errors.order)}
            </p>
          )}
        </div>
      </div>

      {draft.type === 'likert' && (
        <fieldset className={styles.choicesFieldset}>
          <legend>
            <Trans>Custom Answer Choices (optional)</Trans>
          </legend>
          <p className={styles.muted}>
            <Trans>
              Replace the label students see for a value; leave blank to keep the default. Emojis stay the
              same.
            </Trans>
          </p>
          <div className={styles.choicesGrid}>
            {LIKERT_VALUES.map((value) => (
              <TextField
                key={value}
                label={`${value} (${i18n._(LIKERT_LABEL_MESSAGES[value])})`}
                name={`answer_choice_${value}`}
                placeholder={i18n._(LIKERT_LABEL_MESSAGES[value])}
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
          <Trans>Add Question</Trans>
        </Button>
      </div>
    </form>
  );
}
