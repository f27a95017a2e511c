import { Trans, useLingui } from '@lingui/react/macro';
import type { CaseSummary } from '../../../common/schemas/cases';
import styles from './Cases.module.css';
import { CASE_STATUS_LABELS } from './format';

/** A case's tier, state and marks, in words (never color alone). */
export function CaseBadges({
  item,
  showStatus = true,
}: {
  item: Pick<CaseSummary, 'tier' | 'status' | 'overdue' | 'verified'>;
  /** Off where the state has a column of its own. */
  showStatus?: boolean;
}) {
  const { i18n } = useLingui();
  return (
    <span className={styles.badges}>
      <span
        className={[styles.badge, item.tier === 'urgent' && styles.badgeDanger].filter(Boolean).join(' ')}
      >
        {item.tier === 'urgent' ? <Trans>Urgent</Trans> : <Trans>Elevated</Trans>}
      </span>
      {showStatus && <span className={styles.badge}>{i18n._(CASE_STATUS_LABELS[item.status])}</span>}
      {item.overdue && (
        <span className={`${styles.badge} ${styles.badgeDanger}`}>
          <Trans>Overdue</Trans>
        </span>
      )}
      {!item.verified && (
        <span className={`${styles.badge} ${styles.badgeWarning}`}>
          <Trans>Unverified</Trans>
        </span>
      )}
    </span>
  );
}
