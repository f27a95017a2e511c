import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { useLingui } from '@lingui/react/macro';
import type { CaseEvent } from '../../../common/schemas/cases';
import { ZonedTime } from '../time/ZonedTime';
import styles from './Cases.module.css';

const EVENT_LABELS: Record<CaseEvent['kind'], MessageDescriptor> = {
  opened: msg`Case opened by a flagged check-in`,
  contact_asked: msg`The student asked to be contacted, from an anonymous survey`,
  submission: msg`Another flagged check-in joined the case`,
  verified: msg`The student's address was confirmed`,
  alert_queued: msg`Alert mailed to the alert contacts`,
  alert_digested: msg`Unconfirmed sender past the alert limits: told of in the next digest mail`,
  acknowledged: msg`Acknowledged`,
  assigned: msg`Assigned`,
  note: msg`Note`,
  escalated: msg`Escalated: not acknowledged in time`,
  resolved: msg`Resolved`,
  reopened: msg`Reopened`,
};

/** Every change to a case, oldest first, with who and when. */
export function CaseTrail({ events }: { events: readonly CaseEvent[] }) {
  const { i18n } = useLingui();
  return (
    <ol className={styles.trail}>
      {events.map((event) => (
        <li key={event.id}>
          <strong>{i18n._(EVENT_LABELS[event.kind])}</strong>
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
