import { Trans } from '@lingui/react/macro';
import type { ReactNode } from 'react';
import type { ScreenedPhrase, SubmittedAnswer } from '../../../common/schemas/cases';
import styles from './Cases.module.css';

/** Every question of a check-in as it was asked, with the answer in the words the student saw. */
export function SubmittedAnswers({ answers }: { answers: readonly SubmittedAnswer[] }) {
  if (answers.length === 0)
    return (
      <p className={styles.muted}>
        <Trans>No answers were kept.</Trans>
      </p>
    );
  return (
    <dl className={styles.answers}>
      {answers.map((answer, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: answers are listed in the order asked and never reordered
        <div key={index} className={styles.answer}>
          <dt>
            {answer.question_text}
            {answer.question_id === null && (
              <span className={styles.muted}>
                {' '}
                <Trans>(question since deleted)</Trans>
              </span>
            )}
          </dt>
          <dd>
            {answer.question_type === 'text' ? <WrittenAnswer answer={answer} /> : <Choice answer={answer} />}
          </dd>
        </div>
      ))}
    </dl>
  );
}

function Choice({ answer }: { answer: SubmittedAnswer }) {
  if (answer.answer_label !== null) return <strong>{answer.answer_label}</strong>;
  const value = answer.value;
  return (
    <>
      <strong>
        <Trans>{value} on the 1 to 5 scale (5 is the worst)</Trans>
      </strong>{' '}
      <span className={styles.muted}>
        <Trans>
          The labels this deleted question had were not kept, so the words the student saw cannot be shown.
        </Trans>
      </span>
    </>
  );
}

function WrittenAnswer({ answer }: { answer: SubmittedAnswer }) {
  if (!answer.value.trim())
    return (
      <span className={styles.muted}>
        <Trans>No answer written.</Trans>
      </span>
    );
  return <p className={styles.written}>{withPhrasesMarked(answer.value, answer.phrases)}</p>;
}

/** The text with each screened phrase in a <mark>, named for screen readers, which do not announce marks. */
function withPhrasesMarked(text: string, phrases: readonly ScreenedPhrase[]): ReactNode[] {
  const parts: ReactNode[] = [];
  let at = 0;
  for (const phrase of phrases) {
    if (phrase.start < at || phrase.end > text.length) continue;
    parts.push(text.slice(at, phrase.start));
    parts.push(
      <mark key={phrase.start} className={styles.phrase}>
        <span className="visually-hidden">
          {phrase.severity === 'high' ? (
            <Trans>crisis language:</Trans>
          ) : (
            <Trans>concerning language:</Trans>
          )}{' '}
        </span>
        {text.slice(phrase.start, phrase.end)}
      </mark>,
    );
    at = phrase.end;
  }
  parts.push(text.slice(at));
  return parts;
}
