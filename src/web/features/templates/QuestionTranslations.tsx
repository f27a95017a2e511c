import { useMutation } from '@tanstack/react-query';
import { useId, useState } from 'react';
import {
  ANSWER_CHOICE_MAX_LENGTH,
  type AnswerChoices,
  LIKERT_LABELS,
  LIKERT_VALUES,
  type ListedQuestion,
  QUESTION_TEXT_MAX_LENGTH,
  type QuestionTranslation,
  type TranslationStatus,
} from '../../../common/schemas/templates';
import { Button } from '../../ui/Button';
import { TextAreaField, TextField } from '../../ui/Field';
import styles from './Templates.module.css';
import type { ShowFlash } from './TemplatesScreen';
import { deleteTranslation, failureMessage, saveTranslation } from './templatesApi';

const STATUS_LABELS: Record<TranslationStatus, string> = {
  missing: 'Missing',
  outdated: 'Outdated',
  current: 'Up to date',
};

const STATUS_HINTS: Record<TranslationStatus, string> = {
  missing: 'Students who read this language see this question in English.',
  outdated:
    'The question changed after this translation was saved. Students still see it; check it and save it again.',
  current: 'Students who read this language see this translation.',
};

/** "Spanish" for "es": the language's own English name, or its tag when the browser knows none. */
export function languageName(language: string): string {
  try {
    return new Intl.DisplayNames(['en'], { type: 'language' }).of(language) ?? language;
  } catch {
    return language;
  }
}

/** The question's translations, one per language the platform offers besides English. */
export function QuestionTranslations({
  templateId,
  question,
  showFlash,
  onChanged,
}: {
  templateId: number;
  question: ListedQuestion;
  showFlash: ShowFlash;
  onChanged: () => void;
}) {
  if (question.translations.length === 0) return null;
  return (
    <div className={styles.translations}>
      <p className={styles.customAnswersTitle}>Translations</p>
      <ul>
        {question.translations.map((translation) => (
          <TranslationRow
            key={translation.language}
            templateId={templateId}
            question={question}
            translation={translation}
            showFlash={showFlash}
            onChanged={onChanged}
          />
        ))}
      </ul>
    </div>
  );
}

function TranslationRow({
  templateId,
  question,
  translation,
  showFlash,
  onChanged,
}: {
  templateId: number;
  question: ListedQuestion;
  translation: QuestionTranslation;
  showFlash: ShowFlash;
  onChanged: () => void;
}) {
  const [editing, setEditing] = useState(false);
  const name = languageName(translation.language);
  const statusId = useId();
  const remove = useMutation({
    mutationFn: () => deleteTranslation(templateId, question.id, translation.language),
    onSuccess: ({ message }) => showFlash(message),
    onError: (error) =>
      showFlash(
        failureMessage(error, 'Failed to delete the translation.', 'Error deleting the translation.'),
        'error',
      ),
    onSettled: onChanged,
  });
  const number = `Q${question.order}`;

  return (
    <li className={styles.translation}>
      <div className={styles.translationHeading}>
        <span>{name}</span>
        <span className={`${styles.statusBadge} ${styles[`status_${translation.status}`]}`} id={statusId}>
          {STATUS_LABELS[translation.status]}
          <span className="visually-hidden">: {STATUS_HINTS[translation.status]}</span>
        </span>
      </div>
      {translation.question_text && (
        <p className={styles.translationText} lang={translation.language}>
          {translation.question_text}
        </p>
      )}
      {translation.status === 'outdated' && (
        <p className={styles.muted} aria-hidden="true">
          {STATUS_HINTS.outdated}
        </p>
      )}
      {editing ? (
        <TranslationForm
          templateId={templateId}
          question={question}
          translation={translation}
          showFlash={showFlash}
          onDone={(saved) => {
            setEditing(false);
            if (saved) onChanged();
          }}
        />
      ) : (
        <div className={styles.questionActions}>
          <Button
            variant="secondary"
            size="small"
            onClick={() => setEditing(true)}
            aria-describedby={statusId}
          >
            {translation.status === 'missing' ? 'Add' : 'Edit'} {name} translation
            <span className="visually-hidden"> of question {number}</span>
          </Button>
          {translation.status !== 'missing' && (
            <Button
              variant="secondary"
              size="small"
              className={styles.dangerQuiet}
              disabled={remove.isPending}
              onClick={() => remove.mutate()}
            >
              Delete {name} translation
              <span className="visually-hidden"> of question {number}</span>
            </Button>
          )}
        </div>
      )}
    </li>
  );
}

/** The keys of the question's own custom choices: a translation has exactly these. */
function ownChoiceKeys(question: ListedQuestion) {
  return LIKERT_VALUES.filter((value) => question.answer_choices?.[value]?.trim());
}

function TranslationForm({
  templateId,
  question,
  translation,
  showFlash,
  onDone,
}: {
  templateId: number;
  question: ListedQuestion;
  translation: QuestionTranslation;
  showFlash: ShowFlash;
  onDone: (saved: boolean) => void;
}) {
  const name = languageName(translation.language);
  const keys = ownChoiceKeys(question);
  const [text, setText] = useState(translation.question_text ?? '');
  const [choices, setChoices] = useState<AnswerChoices>(() =>
    Object.fromEntries(keys.map((key) => [key, translation.answer_choices?.[key] ?? ''])),
  );
  const save = useMutation({
    mutationFn: () =>
      saveTranslation(templateId, question.id, translation.language, {
        question_text: text,
        answer_choices: keys.length > 0 ? choices : null,
      }),
    onSuccess: ({ message }) => {
      showFlash(message);
      onDone(true);
    },
    onError: (error) =>
      showFlash(
        failureMessage(error, 'Failed to save the translation.', 'Error saving the translation.'),
        'error',
      ),
  });

  return (
    <form
      className={styles.translationForm}
      aria-label={`${name} translation of question Q${question.order}`}
      onSubmit={(event) => {
        event.preventDefault();
        save.mutate();
      }}
    >
      <TextAreaField
        label={`Question text in ${name}`}
        hint={`English: ${question.question_text}`}
        name="question_text"
        required
        maxLength={QUESTION_TEXT_MAX_LENGTH}
        lang={translation.language}
        value={text}
        onChange={(event) => setText(event.currentTarget.value)}
      />
      {keys.map((key) => (
        <TextField
          key={key}
          label={`Answer ${key} (${LIKERT_LABELS[key]}) in ${name}`}
          hint={`English: ${question.answer_choices?.[key] ?? ''}`}
          name={`answer_choice_${key}`}
          required
          maxLength={ANSWER_CHOICE_MAX_LENGTH}
          lang={translation.language}
          value={choices[key] ?? ''}
          onChange={(event) => {
            const value = event.currentTarget.value;
            setChoices((current) => ({ ...current, [key]: value }));
          }}
        />
      ))}
      <div className={styles.questionActions}>
        <Button type="submit" size="small" disabled={save.isPending}>
          Save {name} translation
        </Button>
        <Button variant="ghost" size="small" onClick={() => onDone(false)}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
