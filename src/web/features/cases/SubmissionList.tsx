import type { StudentSubmission } from '../../../common/schemas/cases';
import styles from './Cases.module.css';
import { categoryLabel, formatChange, formatDateTime } from './format';

const TIER_LABELS: Record<StudentSubmission['tier'], string> = {
  urgent: 'Urgent',
  elevated: 'Elevated',
  monitor: 'Monitor',
  none: 'No concern',
};

/** Submissions with their tier, reasons, category means and change from the student's baseline. */
export function SubmissionList({ submissions }: { submissions: readonly StudentSubmission[] }) {
  if (submissions.length === 0) return <p className={styles.muted}>No submissions.</p>;
  return (
    <div>
      {submissions.map((submission) => (
        <article
          key={submission.id}
          className={styles.submission}
          aria-label={`Check-in of ${formatDateTime(submission.submitted_at)}`}
        >
          <div className={styles.badges}>
            <strong>{formatDateTime(submission.submitted_at)}</strong>
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
          {submission.reasons.length > 0 && (
            <ul>
              {submission.reasons.map((reason) => (
                <li key={reason}>{reason}</li>
              ))}
            </ul>
          )}
          <ul className={styles.means} aria-label="Category means (1 best, 5 worst) and change from baseline">
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
        </article>
      ))}
    </div>
  );
}
