import { highestTier } from '../../../common/risk/tiers';
import type { StudentSubmission } from '../../../common/schemas/cases';
import { CATEGORY_MEANS_LEGEND } from '../../../common/schemas/templates';
import { useZonedFormat } from '../time/ZonedTime';
import styles from './Cases.module.css';
import { categoryLabel, formatChange, TIER_LABELS } from './format';
import { InstrumentScores } from './InstrumentScores';
import { SubmittedAnswers } from './SubmittedAnswers';

/**
 * Submissions with their tier, the rules that raised it, category means and change from the
 * student's baseline, and every answer.
 */
export function SubmissionList({ submissions }: { submissions: readonly StudentSubmission[] }) {
  const formatTime = useZonedFormat();
  if (submissions.length === 0) return <p className={styles.muted}>No submissions.</p>;
  return (
    <div>
      {submissions.map((submission) => (
        <article
          key={submission.id}
          className={styles.submission}
          aria-label={`Check-in of ${formatTime(submission.submitted_at)}`}
        >
          <div className={styles.badges}>
            <strong>
              <time dateTime={submission.submitted_at}>{formatTime(submission.submitted_at)}</time>
            </strong>
            <span
              className={[styles.badge, submission.tier === 'urgent' && styles.badgeDanger]
                .filter(Boolean)
                .join(' ')}
            >
              {TIER_LABELS[submission.tier]}
            </span>
            {!submission.verified && (
              <span className={`${styles.badge} ${styles.badgeWarning}`}>Unverified</span>
            )}
          </div>
          <Findings submission={submission} />
          <p className={styles.legend}>Category means: {CATEGORY_MEANS_LEGEND}.</p>
          <ul
            className={styles.means}
            aria-label={`Category means (${CATEGORY_MEANS_LEGEND}) and change from baseline`}
          >
            {Object.entries(submission.category_means).map(([category, mean]) => (
              <li key={category}>
                {categoryLabel(category)} {mean.toFixed(1)}
                {submission.change_from_baseline[category] !== undefined && (
                  <span className={styles.muted}>
                    {' '}
                    ({formatChange(submission.change_from_baseline[category])} vs usual)
                  </span>
                )}
              </li>
            ))}
          </ul>
          <InstrumentScores scores={submission.instruments} />
          <h3 className={styles.subheading}>Answers, as asked</h3>
          <SubmittedAnswers answers={submission.answers} />
        </article>
      ))}
    </div>
  );
}

/**
 * Which rule raised which tier, worded from the answers, the instruments' scores among them.
 * When the rules have changed since it arrived (or screening could not run then), what was
 * recorded at the time is shown as well.
 */
function Findings({ submission }: { submission: StudentSubmission }) {
  const { reasons, tier } = submission;
  const findings = [
    ...submission.findings.map((finding) => ({ ...finding, key: `${finding.rule}-${finding.reason}` })),
    ...submission.instruments
      .filter((score) => score.tier !== 'none')
      .map((score) => ({ tier: score.tier, reason: score.reason, key: `instrument-${score.scored_as}` })),
  ];
  const agrees = highestTier(findings.map((finding) => finding.tier)) === tier;
  return (
    <>
      {findings.length > 0 && (
        <ul className={styles.findings} aria-label="What raised its tier">
          {findings.map((finding) => (
            <li key={finding.key}>
              <strong>{TIER_LABELS[finding.tier]}</strong>: {finding.reason}
            </li>
          ))}
        </ul>
      )}
      {!agrees && reasons.length > 0 && (
        <p className={styles.muted}>
          Screened {TIER_LABELS[tier].toLowerCase()} when it arrived: {reasons.join('; ')}.
        </p>
      )}
    </>
  );
}
