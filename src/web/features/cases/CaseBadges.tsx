import { CASE_STATUS_LABELS, type CaseSummary } from '../../../common/schemas/cases';
import styles from './Cases.module.css';

/** A case's tier, state and marks, in words (never color alone). */
export function CaseBadges({
  item,
  showStatus = true,
}: {
  item: Pick<CaseSummary, 'tier' | 'status' | 'overdue' | 'verified'>;
  /** Off where the state has a column of its own. */
  showStatus?: boolean;
}) {
  return (
    <span className={styles.badges}>
      <span
        className={[styles.badge, item.tier === 'urgent' && styles.badgeDanger].filter(Boolean).join(' ')}
      >
        {item.tier === 'urgent' ? 'Urgent' : 'Elevated'}
      </span>
      {showStatus && <span className={styles.badge}>{CASE_STATUS_LABELS[item.status]}</span>}
      {item.overdue && <span className={`${styles.badge} ${styles.badgeDanger}`}>Overdue</span>}
      {!item.verified && <span className={`${styles.badge} ${styles.badgeWarning}`}>Unverified</span>}
    </span>
  );
}
