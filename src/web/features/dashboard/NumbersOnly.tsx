import { useId } from 'react';
import type { DashboardData } from '../../../common/schemas/dashboard';
import styles from './Dashboard.module.css';
import { shownText } from './shownFigures';

/**
 * What a viewer sees in place of the lists of students (design section 9: numbers only): how
 * many need support and how many unverified answers wait, never who.
 */
export function NumbersOnly({ data }: { data: DashboardData }) {
  const headingId = useId();
  const students = data.num_flagged_students === 1 ? 'student needs' : 'students need';
  const answers = data.num_unverified_flagged === 1 ? 'unverified answer waits' : 'unverified answers wait';
  return (
    <section className={styles.panel} aria-labelledby={headingId}>
      <h2 id={headingId} className={styles.panelTitle}>
        Students Requiring Immediate Support
      </h2>
      <p>
        {shownText(data.num_flagged_students)} {students} support; {shownText(data.num_unverified_flagged)}{' '}
        {answers} for a counsellor to judge.
      </p>
      <p className={styles.tableNote}>
        Names and email addresses are shown to counsellors and administrators only.
      </p>
    </section>
  );
}
