import type { Executor } from '../../db/executor';
import type { FollowUpSettings } from '../institutions';
import * as queries from './queries';

/** One entry of a case's trail: who (null: the product itself), what and when. */
export async function recordCaseEvent(
  trx: Executor,
  event: {
    caseId: number;
    kind: string;
    at: number;
    actor?: { id: number; name: string };
    submissionId?: number;
    detail?: Record<string, unknown>;
  },
): Promise<void> {
  await queries.insertCaseEvent(trx, {
    case_id: event.caseId,
    kind: event.kind,
    actor_user_id: event.actor?.id ?? null,
    actor_name: event.actor?.name ?? null,
    submission_id: event.submissionId ?? null,
    detail: event.detail === undefined ? null : JSON.stringify(event.detail),
    at: event.at,
  });
}

/**
 * Who hears of a case: the configured contacts, or, while an institution has configured none,
 * its admins, so that no flag reaches nobody. A configured contact who is a removed member of
 * the institution no longer hears of its students; the admins are told instead when no one is left.
 */
export async function alertRecipients(
  trx: Executor,
  settings: FollowUpSettings,
  configured: string[],
): Promise<string[]> {
  const removed =
    configured.length > 0 ? await queries.removedMemberEmails(trx, settings.institutionId) : null;
  const current = configured.filter((email) => !removed?.has(email.toLowerCase()));
  if (current.length > 0) return current;
  const admins = await queries.institutionAdminEmails(trx, settings.institutionId);
  return admins.map((admin) => admin.email);
}
