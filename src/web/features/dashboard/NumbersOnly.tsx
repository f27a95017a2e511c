import { plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useId } from 'react';
import type { DashboardData } from '../../../common/schemas/dashboard';
import { isSuppressed, type Shown } from '../../../common/small-groups';
import styles from './Dashboard.module.css';
import { shownText } from './shownFigures';

/** The number a figure's wording agrees with: a hidden one stands for several. */
function countOf(value: Shown<number>): number {
  return isSuppressed(value) ? value.fewer_than : value;
}

/**
 * What a viewer sees in place of the lists of students (design section 9: numbers only): how
 * many need support and how many unverified answers wait, never who.
 */
export function NumbersOnly({ data }: { data: DashboardData }) {
  const { t } = useLingui();
  const headingId = useId();
  const students = shownText(data.num_flagged_students);
  const answers = shownText(data.num_unverified_flagged);
  const studentCount = countOf(data.num_flagged_students);
  const answerCount = countOf(data.num_unverified_flagged);
  return (
    <section className={styles.panel} aria-labelledby={headingId}>
      <h2 id={headingId} className={styles.panelTitle}>
        <Trans>Students Requiring Immediate Support</Trans>
      </h2>
      <p>
        {t`${plural(studentCount, {
          one: `${students} student needs support;`,
          other: `${students} students need support;`,
        })} ${plural(answerCount, {
          one: `${answers} unverified answer waits for a counsellor to judge.`,
          other: `${answers} unverified answers wait for a counsellor to judge.`,
        })}`}
      </p>
      <p className={styles.tableNote}>
        <Trans>Names and email addresses are shown to counsellors and administrators only.</Trans>
      </p>
    </section>
  );
}
