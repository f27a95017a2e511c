import { useId } from 'react';
import { Link } from 'react-router';
import { CASE_STATUS_LABELS } from '../../../common/schemas/cases';
import type { FlaggedStudent } from '../../../common/schemas/dashboard';
import { useZonedFormat } from '../time/ZonedTime';
import styles from './Dashboard.module.css';
import { DASHBOARD_TABLE } from './dashboardTable';

/**
 * Design section 8: urgent and elevated answers from someone who has not proven the address they
 * gave. Staff see them to judge for themselves; they are not counted and move no student in the
 * table above, since anyone holding the link could have sent them.
 */
export function UnverifiedAnswers({ answers }: { answers: readonly FlaggedStudent[] }) {
  const headingId = useId();
  const formatTime = useZonedFormat();
  if (answers.length === 0) return null;
  return (
    <section className={styles.panel} aria-labelledby={headingId}>
      <h2 id={headingId} className={styles.panelTitle}>
        Unverified Answers Needing Attention
      </h2>
      <p className={styles.tableNote}>
        Sent through a shared link by someone who has not confirmed the email address they gave. They are not
        counted in the numbers above until the address is confirmed.
      </p>
      <table className={DASHBOARD_TABLE}>
        <thead>
          <tr>
            <th scope="col">Name Given</th>
            <th scope="col">Status</th>
            <th scope="col">Email Given</th>
            <th scope="col">Case</th>
          </tr>
        </thead>
        <tbody>
          {answers.map((answer) => (
            <tr
              key={`${answer.email}:${answer.submitted_at}`}
              className={answer.tier === 'urgent' ? styles.urgentRow : undefined}
            >
              <th scope="row" data-label="Name Given">
                {answer.name}
              </th>
              <td data-label="Status">
                <span className={styles.statusCell}>
                  <span className={styles.unverifiedMark}>Unverified</span>
                  {answer.tier === 'urgent' && <span className={styles.urgentMark}>Urgent</span>}
                </span>
                <span className={styles.submittedAt}>Sent {formatTime(answer.submitted_at)}</span>
              </td>
              <td data-label="Email Given">
                <a href={`mailto:${answer.email}`} className={styles.email}>
                  {answer.email}
                </a>
              </td>
              <td data-label="Case">
                {answer.case_id ? (
                  <Link to={`/cases/${answer.case_id}/`}>
                    Case {answer.case_id}
                    {answer.case_status ? `: ${CASE_STATUS_LABELS[answer.case_status]}` : ''}
                  </Link>
                ) : (
                  'No case'
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
