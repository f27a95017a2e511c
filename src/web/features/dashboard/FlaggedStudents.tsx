import { useId, useState } from 'react';
import { Link } from 'react-router';
import { CASE_STATUS_LABELS } from '../../../common/schemas/cases';
import type { FlaggedStudent } from '../../../common/schemas/dashboard';
import { Button } from '../../ui/Button';
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
  const formatDate = useZonedFormat();
  const [expanded, setExpanded] = useState(false);
  const headingId = useId();
  const tableId = useId();
  const visible = expanded ? students : students.slice(0, FLAGGED_ROWS_SHOWN);

  return (
    <section className={styles.panel} aria-labelledby={headingId}>
      <h2 id={headingId} className={styles.panelTitle}>
        Students Requiring Immediate Support
      </h2>
      {students.length === 0 ? (
        <p className={styles.emptyTable}>No students currently flagged for intervention.</p>
      ) : (
        <>
          <table id={tableId} className={DASHBOARD_TABLE}>
            <thead>
              <tr>
                <th scope="col">Student Name</th>
                <th scope="col">Status</th>
                <th scope="col">Email</th>
                <th scope="col">Case</th>
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
                    <th scope="row" data-label="Student Name">
                      {student.name}
                    </th>
                    <td data-label="Status">
                      <span className={styles.statusCell}>
                        <span className={styles.needsIntervention}>Needs Intervention</span>
                        {student.tier === 'urgent' && <span className={styles.urgentMark}>Urgent</span>}
                      </span>
                      {date && <span className={styles.submittedAt}>Latest response {date}</span>}
                    </td>
                    <td data-label="Email">
                      <a href={`mailto:${student.email}`} className={styles.email}>
                        {student.email}
                      </a>
                    </td>
                    <td data-label="Case">
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
                {expanded ? 'Show Less Students' : 'Show More Students'}
              </Button>
              {expanded && total > students.length && (
                <p className={styles.tableNote}>
                  Showing the first {students.length} of {total} students. Export the CSV for the full list.
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
  return (
    <span className={styles.statusCell}>
      {student.case_id ? (
        <Link to={`/cases/${student.case_id}/`}>
          Case {student.case_id}
          {student.case_status ? `: ${CASE_STATUS_LABELS[student.case_status]}` : ''}
        </Link>
      ) : (
        <span>No case</span>
      )}
      {student.student_id !== undefined && (
        <Link to={`/students/${student.student_id}/history/`} aria-label={`History of ${student.name}`}>
          History
        </Link>
      )}
    </span>
  );
}
