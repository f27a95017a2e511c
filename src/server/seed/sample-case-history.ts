import type { Kysely } from 'kysely';
import type { CaseOutcome } from '../../common/schemas/cases';
import { writeTransaction } from '../db/transaction-runner';
import type { Database } from '../db/types';
import { recordCaseEvent } from '../features/cases';
import type { FollowUpSettings } from '../features/institutions';
import { MINUTE, now, SECOND } from '../lib/time';
import * as queries from './queries';

/**
 * The follow-up history of the demo's back-dated cases, as a working institution's would read:
 * each urgent alert mailed seconds after its check-in, each case acknowledged well within the
 * institution's deadline, and most of them resolved days later. Written straight to the case,
 * its trail and its mail at those past times: the case service works on the present clock only.
 * No audit rows: the audit log records what people did on this installation, and nobody did this.
 */

type Random = () => number;

export interface CaseWorkerName {
  id: number;
  name: string;
}

/** How the demo's resolved cases ended: mostly connected with counselling, as most do. */
const OUTCOMES: readonly CaseOutcome[] = [
  'connected_to_counselling',
  'connected_to_counselling',
  'connected_to_counselling',
  'referred_elsewhere',
  'no_concern_after_contact',
  'unable_to_reach',
];

const NOTES = [
  'Called the student; booked an appointment at the counselling centre.',
  'Met after class; agreed on a study plan and a check-in next week.',
  'Left a message; will call again tomorrow.',
  'Spoke with the student; they are seeing their own doctor this week.',
];

const within = (random: Random, low: number, high: number) => low + random() * (high - low);
const pickFrom = <T>(random: Random, list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;

/** What happened to a case after its check-in, in milliseconds from the check-in. */
export interface CaseTimings {
  alertSentAfter: number;
  acknowledgedAfter: number;
  noteAfter: number;
  resolvedAfter: number;
}

/**
 * Plausible delays for a case of this tier: an alert goes out within half a minute; urgent cases
 * are picked up within the first two thirds of their window, elevated ones within the first half
 * (the rest of a window is slack, as at a team that keeps its deadlines); resolution days later.
 */
export function caseTimings(
  random: Random,
  tier: 'urgent' | 'elevated',
  settings: Pick<FollowUpSettings, 'urgentAckMinutes' | 'elevatedAckMinutes'>,
): CaseTimings {
  const windowMs = (tier === 'urgent' ? settings.urgentAckMinutes : settings.elevatedAckMinutes) * MINUTE;
  const acknowledgedAfter =
    windowMs * (tier === 'urgent' ? within(random, 0.08, 0.66) : within(random, 0.04, 0.5));
  const noteAfter = acknowledgedAfter + within(random, 5, 90) * MINUTE;
  // Whole milliseconds: times are stored as integers.
  return {
    alertSentAfter: Math.round(within(random, 2, 30) * SECOND),
    acknowledgedAfter: Math.round(acknowledgedAfter),
    noteAfter: Math.round(noteAfter),
    resolvedAfter: Math.round(noteAfter + within(random, 1, 9) * 24 * 60 * MINUTE),
  };
}

/**
 * Rewrites a case the seed just opened for a back-dated check-in as it would have gone at the
 * time: opened and alerted then, acknowledged and noted by `worker`, resolved unless `keepOpen`.
 */
export async function settleSeededCase(
  db: Kysely<Database>,
  options: {
    caseId: number;
    worker: CaseWorkerName;
    random: Random;
    settings: Pick<FollowUpSettings, 'urgentAckMinutes' | 'elevatedAckMinutes'>;
    keepOpen?: boolean;
  },
): Promise<void> {
  const { caseId, worker, random } = options;
  await writeTransaction(db, async (trx) => {
    const found = await queries.seededCase(trx, caseId);
    if (!found) return;
    const submitted = found.first_submitted_at;
    const planned = caseTimings(random, found.tier, options.settings);
    // A recent check-in's case cannot have been worked in the future: its steps end by now, in order.
    const latest = now() - submitted - MINUTE;
    const timings = {
      alertSentAfter: planned.alertSentAfter,
      acknowledgedAfter: Math.min(planned.acknowledgedAfter, latest - 2),
      noteAfter: Math.min(planned.noteAfter, latest - 1),
      resolvedAfter: Math.min(planned.resolvedAfter, latest),
    };
    const windowMs =
      (found.tier === 'urgent' ? options.settings.urgentAckMinutes : options.settings.elevatedAckMinutes) *
      MINUTE;
    const resolved = !options.keepOpen;
    await queries.backdateCase(trx, caseId, {
      opened_at: submitted,
      acknowledge_by: submitted + windowMs,
      next_escalation_at: null,
      status: resolved ? 'resolved' : 'in_progress',
      acknowledged_at: submitted + timings.acknowledgedAfter,
      acknowledged_by: worker.id,
      assigned_to: worker.id,
      resolved_at: resolved ? submitted + timings.resolvedAfter : null,
      outcome: resolved ? pickFrom(random, OUTCOMES) : null,
      open_respondent_id: resolved ? null : found.respondent_id,
    });
    // Opened, alerted: at the check-in; its alert mail sent seconds after, not at first start.
    await queries.backdateCaseEvents(trx, caseId, submitted);
    await queries.markAlertsSent(trx, caseId, {
      queuedAt: submitted,
      sentAt: submitted + timings.alertSentAfter,
    });
    const actor = { id: worker.id, name: worker.name };
    await recordCaseEvent(trx, {
      caseId,
      kind: 'acknowledged',
      actor,
      at: submitted + timings.acknowledgedAfter,
    });
    await recordCaseEvent(trx, {
      caseId,
      kind: 'note',
      actor,
      at: submitted + timings.noteAfter,
      detail: { note: pickFrom(random, NOTES) },
    });
    if (resolved) {
      const outcome = (await queries.seededCase(trx, caseId))?.outcome ?? 'connected_to_counselling';
      await recordCaseEvent(trx, {
        caseId,
        kind: 'resolved',
        actor,
        at: submitted + timings.resolvedAfter,
        detail: { outcome },
      });
    }
  });
}
