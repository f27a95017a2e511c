import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useId } from 'react';
import { itemsToAsk } from '../../../common/instruments/conditional';
import { DECLINED, type InstrumentAnswers, type ItemAnswer } from '../../../common/instruments/types';
import type { SurveyInstrumentBlock } from '../../../common/schemas/surveys';
import { ChoiceGroup } from '../../ui/Field';
import { questionBlockId } from './QuestionField';
import styles from './Survey.module.css';

/** The words of a refusal, offered only on the items the instrument lets a respondent decline. */
export const PREFER_NOT_TO_ANSWER = msg`Prefer not to answer`;

interface InstrumentFieldProps {
  block: SurveyInstrumentBlock;
  number: number;
  total: number;
  answers: InstrumentAnswers;
  onChange: (questionId: number, itemId: string, value: ItemAnswer) => void;
  disabled: boolean;
  /** Shown after a submit attempt left an item of this block unanswered. */
  missing: boolean;
  isNew?: boolean;
}

function parseChoice(value: string): ItemAnswer {
  return value === DECLINED ? DECLINED : Number(value);
}

/**
 * A validated instrument as its publisher prints it: the stem, then each item asked so far as a
 * radio group on the instrument's own scale. Conditional items appear as soon as the earlier
 * answers call for them (the same rule the server checks). Scores and bands are never shown here.
 */
export function InstrumentField({
  block,
  number,
  total,
  answers,
  onChange,
  disabled,
  missing,
  isNew = false,
}: InstrumentFieldProps) {
  const { i18n } = useLingui();
  const { instrument } = block;
  // Asked in its official wording: a screen reader is told which language that is.
  const itemsLanguage = block.language === i18n.locale ? undefined : block.language;
  const headingId = useId();
  const choices = instrument.scale.map((option) => ({ value: String(option.value), label: option.label }));
  return (
    <section
      id={questionBlockId(block.id)}
      className={styles.question}
      data-missing={missing || undefined}
      aria-labelledby={headingId}
    >
      <p id={headingId}>
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
        {instrument.instructions && (
          <span className={styles.questionText} lang={itemsLanguage}>
            {instrument.instructions}
          </span>
        )}
        {missing && (
          <span className={styles.questionError}>
            <Trans>Please answer every question in this section.</Trans>
          </span>
        )}
      </p>
      <div className={styles.instrumentItems} lang={itemsLanguage}>
        {itemsToAsk(instrument, answers).map((item) => {
          const answer = answers[item.id];
          return (
            <ChoiceGroup
              key={item.id}
              className={styles.likert}
              legend={<span className={styles.instrumentItem}>{`${item.number}. ${item.text}`}</span>}
              name={`question-${block.id}-${item.id}`}
              choices={
                item.declinable
                  ? [...choices, { value: DECLINED, label: i18n._(PREFER_NOT_TO_ANSWER) }]
                  : choices
              }
              value={answer === undefined ? '' : String(answer)}
              onChange={(choice) => onChange(block.id, item.id, parseChoice(choice))}
              disabled={disabled}
              required
            />
          );
        })}
      </div>
      {instrument.licence && <p className={styles.licence}>{instrument.licence}</p>}
    </section>
  );
}
