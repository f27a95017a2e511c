import { Trans } from '@lingui/react/macro';
import type { InstrumentScore } from '../../../common/schemas/cases';
import styles from './Cases.module.css';
import { TIER_LABELS } from './format';

/**
 * Each validated instrument of a check-in, for staff: total and band, the tier it raises and
 * why, what it asks of them, the change from the student's previous total, and every item as
 * answered, always marked as a screening result rather than a diagnosis.
 */
export function InstrumentScores({ scores }: { scores: readonly InstrumentScore[] }) {
  if (scores.length === 0) return null;
  return (
    <>
      <h3 className={styles.subheading}>
        <Trans>Validated instruments</Trans>
      </h3>
      {scores.map((score) => {
        const total = score.total;
        return (
          <section
            key={`${score.instrument_id}-${score.scored_as}`}
            aria-label={score.name}
            className={styles.instrument}
          >
            <p>
              <strong>{score.name}</strong>
              {total !== null && (
                <>
                  {' '}
                  <Trans>total {total}</Trans>
                </>
              )}
              {score.band && <> ({score.band})</>} <span className={styles.muted}>{score.disclaimer}</span>
            </p>
            <p>
              <strong>{TIER_LABELS[score.tier]}</strong>: {score.reason}
            </p>
            {score.acute && (
              <p>
                <strong>
                  <Trans>Imminent risk identified: act now.</Trans>
                </strong>
              </p>
            )}
            {score.safety_assessment && !score.acute && (
              <p>
                <strong>
                  <Trans>A brief safety assessment is asked for.</Trans>
                </strong>
              </p>
            )}
            {score.change && (
              <p>
                {score.change.clinically_significant ? (
                  <strong>{score.change.description}</strong>
                ) : (
                  score.change.description
                )}
              </p>
            )}
            <dl className={styles.answers}>
              {score.items.map((item) => (
                <div key={item.item_id} className={styles.answer}>
                  <dt>
                    {item.number}. {item.text}
                  </dt>
                  <dd>
                    <strong>{item.answer_label}</strong>
                    {typeof item.answer === 'number' && (
                      <span className={styles.muted}> ({item.answer})</span>
                    )}
                  </dd>
                </div>
              ))}
            </dl>
          </section>
        );
      })}
    </>
  );
}
