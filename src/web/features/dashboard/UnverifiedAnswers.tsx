import { Trans, useLingui } from '@lingui/react/macro';
import { useId } from 'react';
import { Link } from 'react-router';
import type { FlaggedStudent } from '../../../common/schemas/dashboard';
import { useZonedFormat } from '../time/ZonedTime';
import styles from './Dashboard.module.css';
import { DASHBOARD_TABLE } from './dashboardTable';
import { CaseName } from './FlaggedStudents';

/**
 * Design section 8: urgent and elevated answers from someone who has not proven the address they
 * gave. Staff see them to judge for themselves; they are not counted and move no student in the
 * table above, since anyone holding the link could have sent them.
 */
export function UnverifiedAnswers({ answers }: { answers: readonly FlaggedStudent[] }) {
  const { t } = useLingui();
  const headingId = useId();
  const formatTime = useZonedFormat();
  if (answers.length === 0) return null;
  return (
    <section className={styles.panel} aria-labelledby={headingId}>
      <h2 id={headingId} className={styles.panelTitle}>
        <Trans>Unverified Answers Needing Attention</Trans>
      </h2>
      <p className={styles.tableNote}>
        <Trans>
          Sent through a shared link by someone who has not confirmed the email address they gave. They are
          not counted in the numbers above until the address is confirmed.
        </Trans>
      </p>
      <table className={DASHBOARD_TABLE}>
        <thead>
          <tr>
            <th scope="col">
              <Trans>Name Given</Trans>
            </th>
            <th scope="col">
              <Trans>Status</Trans>
            </th>
            <th scope="col">
              <Trans>Email Given</Trans>
            </th>
            <th scope="col">
              <Trans>Case</Trans>
            </th>
          </tr>
        </thead>
        <tbody>
          {answers.map((answer) => {
            const sentAt = formatTime(answer.submitted_at);
            return (
              <tr
                key={`${answer.email}:${answer.submitted_at}`}
                className={answer.tier === 'urgent' ? styles.urgentRow : undefined}
              >
                <th scope="row" data-label={t`Name Given`}>
                  {answer.name}
                </th>
                <td data-label={t`Status`}>
                  <span className={styles.statusCell}>
                    <span className={styles.unverifiedMark}>
                      <Trans>Unverified</Trans>
                    </span>
                    {answer.tier === 'urgent' && (
                      <span className={styles.urgentMark}>
                        <Trans>Urgent</Trans>
                      </span>
                    )}
                  </span>
                  <span className={styles.submittedAt}>
                    <Trans>Sent {sentAt}</Trans>
                  </span>
                </td>
                <td data-label={t`Email Given`}>
                  <a href={`mailto:${answer.email}`} className={styles.email}>
                    {answer.email}
                  </a>
                </td>
                <td data-label={t`Case`}>
                  {answer.case_id ? (
                    <Link to={`/cases/${answer.case_id}/`}>
                      <CaseName id={answer.case_id} status={answer.case_status} />
                    </Link>
                  ) : (
                    t`No case`
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </section>
  );
}
