import type { CaseEvent } from '../../../common/schemas/cases';
import { ZonedTime } from '../time/ZonedTime';
import styles from './Cases.module.css';

const EVENT_LABELS: Record<CaseEvent['kind'], string> = {
  opened: 'Case opened by a flagged check-in',
  contact_asked: 'The student asked to be contacted, from an anonymous survey',
  submission: 'Another flagged check-in joined the case',
  verified: "The student's address was confirmed",
  alert_queued: 'Alert mailed to the alert contacts',
  alert_digested: 'Unconfirmed sender past the alert limits: told of in the next digest mail',
  acknowledged: 'Acknowledged',
  assigned: 'Assigned',
  note: 'Note',
  escalated: 'Escalated: not acknowledged in time',
  resolved: 'Resolved',
  reopened: 'Reopened',
};

/** Every change to a case, oldest first, with who and when. */
export function CaseTrail({ events }: { events: readonly CaseEvent[] }) {
  return (
    <ol className={styles.trail}>
      {events.map((event) => (
        <li key={event.id}>
          <strong>{EVENT_LABELS[event.kind]}</strong>
          <span className={styles.muted}>
            {' '}
            · <ZonedTime at={event.at} />
            {event.actor ? ` · ${event.actor}` : ''}
          </span>
          {event.text && <p className={styles.trailText}>{event.text}</p>}
        </li>
      ))}
    </ol>
  );
}
