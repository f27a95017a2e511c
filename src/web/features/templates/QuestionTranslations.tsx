import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useMutation } from '@tanstack/react-query';
import { useId, useState } from 'react';
import {
  ANSWER_CHOICE_MAX_LENGTH,
  type AnswerChoices,
  LIKERT_VALUES,
  type ListedQuestion,
  QUESTION_TEXT_MAX_LENGTH,
  type QuestionTranslation,
  type TranslationStatus,
} from '../../../common/schemas/templates';
import { Button } from '../../ui/Button';
import { TextAreaField, TextField } from '../../ui/Field';
import { LIKERT_LABEL_MESSAGES } from '../survey/likert';
import styles from './Templates.module.css';
import type { ShowFlash } from './TemplatesScreen';
import { deleteTranslation, failureMessage, saveTranslation } from './templatesApi';

const STATUS_LABELS: Record<TranslationStatus, MessageDescriptor> = {
  missing: msg`Missing`,
  outdated: msg`Outdated`,
  current: msg`Up to date`,
};

const STATUS_HINTS: Record<TranslationStatus, MessageDescriptor> = {
  missing: msg`Students who read this language see this question in English.`,
  outdated: msg`The question changed after this translation was saved. Students still see it; check it and save it again.`,
  current: msg`Students who read this language see this translation.`,
};

/**
 * A language's name in the language the page is read in ("Spanish" on an English page,
 * "español" on a Spanish one), or its tag when the browser knows none.
 */
export function languageName(language: string, readIn: string): string {
  try {
    return new Intl.DisplayNames([readIn], { type: 'language' }).of(language) ?? language;
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
      <p className={styles.customAnswersTitle}>
        <Trans>Translations</Trans>
      </p>
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
  const { t, i18n } = useLingui();
  const [editing, setEditing] = useState(false);
  const name = languageName(translation.language, i18n.locale);
  const statusId = useId();
  const remove = useMutation({
    mutationFn: () => deleteTranslation(templateId, question.id, translation.language),
    onSuccess: ({ message }) => showFlash(message),
    onError: (error) =>
      showFlash(
        failureMessage(error, t`Failed to delete the translation.`, t`Error deleting the translation.`),
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
          {i18n._(STATUS_LABELS[translation.status])}
          <span className="visually-hidden">: {i18n._(STATUS_HINTS[translation.status])}</span>
        </span>
      </div>
      {translation.question_text && (
        <p className={styles.translationText} lang={translation.language}>
          {translation.question_text}
        </p>
      )}
      {translation.status === 'outdated' && (
        <p className={styles.muted} aria-hidden="true">
          {i18n._(STATUS_HINTS.outdated)}
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
            {translation.status === 'missing' ? (
              <Trans>
                Add {name} translation<span className="visually-hidden"> of question {number}</span>
              </Trans>
            ) : (
              <Trans>
                Edit {name} translation<span className="visually-hidden"> of question {number}</span>
              </Trans>
            )}
          </Button>
          {translation.status !== 'missing' && (
            <Button
              variant="secondary"
              size="small"
              className={styles.dangerQuiet}
              disabled={remove.isPending}
              onClick={() => remove.mutate()}
            >
              <Trans>
                Delete {name} translation<span className="visually-hidden"> of question {number}</span>
              </Trans>
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
  const { t, i18n } = useLingui();
  const name = languageName(translation.language, i18n.locale);
  const keys = ownChoiceKeys(question);
  const order = question.order;
  const english = question.question_text;
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
        failureMessage(error, t`Failed to save the translation.`, t`Error saving the translation.`),
        'error',
      ),
  });

  return (
    <form
      className={styles.translationForm}
      aria-label={t`${name} translation of question Q${order}`}
      onSubmit={(event) => {
        event.preventDefault();
        save.mutate();
      }}
    >
      <TextAreaField
        label={t`Question text in ${name}`}
        hint={t`English: ${english}`}
        name="question_text"
        required
        maxLength={QUESTION_TEXT_MAX_LENGTH}
        lang={translation.language}
        value={text}
        onChange={(event) => setText(event.currentTarget.value)}
      />
      {keys.map((key) => {
        const label = i18n._(LIKERT_LABEL_MESSAGES[key]);
        const englishChoice = question.answer_choices?.[key] ?? '';
        return (
          <TextField
            key={key}
            label={t`Answer ${key} (${label}) in ${name}`}
            hint={t`English: ${englishChoice}`}
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
        );
      })}
      <div className={styles.questionActions}>
        <Button type="submit" size="small" disabled={save.isPending}>
          <Trans>Save {name} translation</Trans>
        </Button>
        <Button variant="ghost" size="small" onClick={() => onDone(false)}>
          <Trans>Cancel</Trans>
        </Button>
      </div>
    </form>
  );
}
