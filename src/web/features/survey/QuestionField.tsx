import { Trans, useLingui } from '@lingui/react/macro';
import type { SurveyQuestion } from '../../../common/schemas/surveys';
import { TEXT_ANSWER_MAX_LENGTH } from '../../../common/schemas/values';
import { ChoiceGroup, TextAreaField } from '../../ui/Field';
import { likertChoices } from './likert';
import styles from './Survey.module.css';

/** The element id of a question's block, used to bring the first unanswered one into view. */
export const questionBlockId = (questionId: number) => `survey-question-${questionId}`;

interface QuestionFieldProps {
  question: SurveyQuestion;
  number: number;
  total: number;
  value: string;
  onChange: (questionId: number, value: string) => void;
  disabled: boolean;
  /** Shown after a submit attempt left this question unanswered. */
  missing: boolean;
  /** Added to the survey while the student had it open. */
  isNew?: boolean;
}

/**
 * One question: a Likert question is a radio group (fieldset and legend, arrow keys move
 * between its options); a text question is a four-row text area.
 */
export function QuestionField({
  question,
  number,
  total,
  value,
  onChange,
  disabled,
  missing,
  isNew = false,
}: QuestionFieldProps) {
  // Also draws the scale's labels again when the language changes (likert.ts reads them then).
  const { t, i18n } = useLingui();
  // A question without a translation into the page's language is in its own: said so, a screen
  // reader pronounces it as written.
  const textLanguage = question.language === i18n.locale ? undefined : question.language;
  const heading = (
    <>
      <span className={styles.questionNumber}>
        <Trans>
          Question {number} of {total}
        </Trans>
        {isNew && (
          <span className={styles.newBadge}>
            <Trans>New</Trans>
          </span>
        )}
      </span>
      <span className={styles.questionText} lang={textLanguage}>
        {question.text}
      </span>
      {missing && (
        <span className={styles.questionError}>
          <Trans>Please answer this question.</Trans>
        </span>
      )}
    </>
  );

  return (
    <div id={questionBlockId(question.id)} className={styles.question} data-missing={missing || undefined}>
      {question.question_type === 'likert' ? (
        <ChoiceGroup
          className={styles.likert}
          legend={heading}
          name={`question-${question.id}`}
          choices={likertChoices(question.answer_choices, question.category)}
          value={value}
          onChange={(choice) => onChange(question.id, choice)}
          disabled={disabled}
          required
        />
      ) : (
        <TextAreaField
          className={styles.textQuestion}
          label={heading}
          name={`question-${question.id}`}
          rows={4}
          placeholder={t`Enter your answer here...`}
          maxLength={TEXT_ANSWER_MAX_LENGTH}
          value={value}
          onChange={(event) => onChange(question.id, event.currentTarget.value)}
          disabled={disabled}
          required
          aria-invalid={missing || undefined}
        />
      )}
    </div>
  );
}
