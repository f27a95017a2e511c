import { Trans, useLingui } from '@lingui/react/macro';
import { highestTier } from '../../../common/risk/tiers';
import type { StudentSubmission } from '../../../common/schemas/cases';
import { useZonedFormat } from '../time/ZonedTime';
import styles from './Cases.module.css';
import { CATEGORY_MEANS_LEGEND, categoryLabel, formatChange, formatOneDecimal, TIER_LABELS } from './format';
import { InstrumentScores } from './InstrumentScores';
import { SubmittedAnswers } from './SubmittedAnswers';

/**
 * Submissions with their tier, the rules that raised it, category means and change from the
 * student's baseline, and every answer.
 */
export function SubmissionList({ submissions }: { submissions: readonly StudentSubmission[] }) {
  const { t, i18n } = useLingui();
  const formatTime = useZonedFormat();
  const legend = i18n._(CATEGORY_MEANS_LEGEND);
  const checkInLabel = (at: string) => {
    const time = formatTime(at);
    return t`Check-in of ${time}`;
  };
  if (submissions.length === 0)
    return (
      <p className={styles.muted}>
        <Trans>No submissions.</Trans>
      </p>
    );
  return (
    <div>
      {submissions.map((submission) => (
        <article
          key={submission.id}
          className={styles.submission}
          aria-label={checkInLabel(submission.submitted_at)}
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
              <span className={`${styles.badge} ${styles.badgeWarning}`}>
                <Trans>Unverified</Trans>
              </span>
            )}
          </div>
          <Findings submission={submission} />
          <p className={styles.legend}>
            <Trans>Category means: {legend}.</Trans>
          </p>
          <ul className={styles.means} aria-label={t`Category means (${legend}) and change from baseline`}>
            {Object.entries(submission.category_means).map(([category, mean]) => {
              const change = submission.change_from_baseline[category];
              const shownChange = formatChange(change);
              return (
                <li key={category}>
                  {categoryLabel(category)} {formatOneDecimal(mean)}
                  {change !== undefined && (
                    <span className={styles.muted}>
                      {' '}
                      <Trans>({shownChange} vs usual)</Trans>
                    </span>
                  )}
                </li>
              );
            })}
          </ul>
          <InstrumentScores scores={submission.instruments} />
          <h3 className={styles.subheading}>
            <Trans>Answers, as asked</Trans>
          </h3>
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
  const { t } = useLingui();
  const { reasons, tier } = submission;
  const findings = [
    ...submission.findings.map((finding) => ({ ...finding, key: `${finding.rule}-${finding.reason}` })),
    ...submission.instruments
      .filter((score) => score.tier !== 'none')
      .map((score) => ({ tier: score.tier, reason: score.reason, key: `instrument-${score.scored_as}` })),
  ];
  const agrees = highestTier(findings.map((finding) => finding.tier)) === tier;
  const screened = TIER_LABELS[tier].toLowerCase();
  const recorded = reasons.join('; ');
  return (
    <>
      {findings.length > 0 && (
        <ul className={styles.findings} aria-label={t`What raised its tier`}>
          {findings.map((finding) => (
            <li key={finding.key}>
              <strong>{TIER_LABELS[finding.tier]}</strong>: {finding.reason}
            </li>
          ))}
        </ul>
      )}
      {!agrees && reasons.length > 0 && (
        <p className={styles.muted}>
          <Trans>
            Screened {screened} when it arrived: {recorded}.
          </Trans>
        </p>
      )}
    </>
  );
}
