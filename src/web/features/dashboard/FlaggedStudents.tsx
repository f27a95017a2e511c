import { Trans, useLingui } from '@lingui/react/macro';
import { useId, useState } from 'react';
import { Link } from 'react-router';
import type { FlaggedStudent } from '../../../common/schemas/dashboard';
import { Button } from '../../ui/Button';
import { CASE_STATUS_LABELS } from '../cases/format';
import { useZonedFormat } from '../time/ZonedTime';
import styles from './Dashboard.module.css';
import { DASHBOARD_TABLE } from './dashboardTable';

/** Spec section 9: the table shows 3 students until the user asks for more. */
const FLAGGED_ROWS_SHOWN = 3;

interface FlaggedStudentsProps {
  students: readonly FlaggedStudent[];
  /** All flagged students of the institution; the list carries the first ones only. */
  total: number;
}

/**
 * "Students Requiring Immediate Support": urgent students first (the server's order), each
 * marked as needing intervention and, when urgent, with an Urgent mark. Design section 5:
 * students are never told they were flagged; this list is for their counsellors only.
 */
export function FlaggedStudents({ students, total }: FlaggedStudentsProps) {
  const { t } = useLingui();
  const formatDate = useZonedFormat();
  const [expanded, setExpanded] = useState(false);
  const headingId = useId();
  const tableId = useId();
  const visible = expanded ? students : students.slice(0, FLAGGED_ROWS_SHOWN);
  const shown = students.length;

  return (
    <section className={styles.panel} aria-labelledby={headingId}>
      <h2 id={headingId} className={styles.panelTitle}>
        <Trans>Students Requiring Immediate Support</Trans>
      </h2>
      {students.length === 0 ? (
        <p className={styles.emptyTable}>
          <Trans>No students currently flagged for intervention.</Trans>
        </p>
      ) : (
        <>
          <table id={tableId} className={DASHBOARD_TABLE}>
            <thead>
              <tr>
                <th scope="col">
                  <Trans>Student Name</Trans>
                </th>
                <th scope="col">
                  <Trans>Status</Trans>
                </th>
                <th scope="col">
                  <Trans>Email</Trans>
                </th>
                <th scope="col">
                  <Trans>Case</Trans>
                </th>
              </tr>
            </thead>
            <tbody>
              {visible.map((student) => {
                const date = formatDate(student.submitted_at) || null;
                return (
                  <tr
                    key={student.email}
                    className={student.tier === 'urgent' ? styles.urgentRow : undefined}
                  >
                    <th scope="row" data-label={t`Student Name`}>
                      {student.name}
                    </th>
                    <td data-label={t`Status`}>
                      <span className={styles.statusCell}>
                        <span className={styles.needsIntervention}>
                          <Trans>Needs Intervention</Trans>
                        </span>
                        {student.tier === 'urgent' && (
                          <span className={styles.urgentMark}>
                            <Trans>Urgent</Trans>
                          </span>
                        )}
                      </span>
                      {date && (
                        <span className={styles.submittedAt}>
                          <Trans>Latest response {date}</Trans>
                        </span>
                      )}
                    </td>
                    <td data-label={t`Email`}>
                      <a href={`mailto:${student.email}`} className={styles.email}>
                        {student.email}
                      </a>
                    </td>
                    <td data-label={t`Case`}>
                      <CaseCell student={student} />
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
          {students.length > FLAGGED_ROWS_SHOWN && (
            <div className={styles.tableFooter}>
              <Button
                variant="secondary"
                size="small"
                aria-expanded={expanded}
                aria-controls={tableId}
                onClick={() => setExpanded((shown) => !shown)}
              >
                {expanded ? <Trans>Show Less Students</Trans> : <Trans>Show More Students</Trans>}
              </Button>
              {expanded && total > students.length && (
                <p className={styles.tableNote}>
                  <Trans>
                    Showing the first {shown} of {total} students. Export the CSV for the full list.
                  </Trans>
                </p>
              )}
            </div>
          )}
        </>
      )}
    </section>
  );
}

/** The row's case and its state, and the student's history (design section 9). */
function CaseCell({ student }: { student: FlaggedStudent }) {
  const { t } = useLingui();
  const name = student.name;
  return (
    <span className={styles.statusCell}>
      {student.case_id ? (
        <Link to={`/cases/${student.case_id}/`}>
          <CaseName id={student.case_id} status={student.case_status} />
        </Link>
      ) : (
        <span>
          <Trans>No case</Trans>
        </span>
      )}
      {student.student_id !== undefined && (
        <Link to={`/students/${student.student_id}/history/`} aria-label={t`History of ${name}`}>
          <Trans>History</Trans>
        </Link>
      )}
    </span>
  );
}

/** "Case 12: New", or "Case 12" for a case whose state the list does not carry. */
export function CaseName({ id, status }: { id: number; status: FlaggedStudent['case_status'] }) {
  const { i18n } = useLingui();
  if (!status) return <Trans>Case {id}</Trans>;
  const state = i18n._(CASE_STATUS_LABELS[status]);
  return (
    <Trans>
      Case {id}: {state}
    </Trans>
  );
}
