import type { RetentionSettings, RetentionSettingsResponse } from '../../../common/schemas/retention';
import type { Executor } from '../../db/executor';
import { type AuditActor, recordAudit } from '../../lib/audit';
import { heldEmails } from '../legal-holds';
import {
  anonymousCutoff,
  expiredAnonymousSubmissions,
  expiredAuditEntries,
  expiredCases,
  expiredDrafts,
  expiredSubmissions,
} from './expired';
import { cutoffsAt, type RetentionPolicy, readRetentionPolicy } from './policy';
import { scheduledPurgeAt } from './purge';

const iso = (at: number) => new Date(at).toISOString();

/** The periods, and what the next purge will remove under them: counts and from before when. */
async function describePolicy(
  db: Executor,
  institutionId: number,
  at: number,
): Promise<RetentionSettingsResponse> {
  const policy = await readRetentionPolicy(db, institutionId);
  const purgeAt = await scheduledPurgeAt(db, at);
  const cutoffs = cutoffsAt(policy, purgeAt);
  const held = await heldEmails(db, institutionId);
  const counted = async (query: { executeTakeFirstOrThrow(): Promise<{ n: number | string }> }) =>
    Number((await query.executeTakeFirstOrThrow()).n);
  return {
    success: true,
    ...toFields(policy),
    next_purge: {
      at: iso(purgeAt),
      submissions: {
        count: await counted(
          expiredSubmissions(db, institutionId, cutoffs, held).select((eb) =>
            eb.fn.countAll<number | string>().as('n'),
          ),
        ),
        before: iso(cutoffs.answers),
      },
      anonymous_answers: {
        count: await counted(
          expiredAnonymousSubmissions(db, institutionId, cutoffs).select((eb) =>
            eb.fn.countAll<number | string>().as('n'),
          ),
        ),
        before: iso(anonymousCutoff(cutoffs)),
      },
      drafts: {
        count: await counted(
          expiredDrafts(db, institutionId, cutoffs, held).select((eb) =>
            eb.fn.countAll<number | string>().as('n'),
          ),
        ),
        before: iso(cutoffs.answers),
      },
      closed_cases: {
        count: await counted(
          expiredCases(db, institutionId, cutoffs, held).select((eb) =>
            eb.fn.countAll<number | string>().as('n'),
          ),
        ),
        before: iso(cutoffs.closedCases),
      },
      audit_log: {
        count: await counted(
          expiredAuditEntries(db, institutionId, cutoffs).select((eb) =>
            eb.fn.countAll<number | string>().as('n'),
          ),
        ),
        before: iso(cutoffs.auditLog),
      },
      held_students: held.length,
    },
  };
}

function toFields(policy: RetentionPolicy): RetentionSettings {
  return {
    answers_months: policy.answersMonths,
    closed_cases_months: policy.closedCasesMonths,
    audit_log_months: policy.auditLogMonths,
  };
}

export async function getRetentionSettings(options: {
  db: Executor;
  institutionId: number;
  actor: AuditActor;
  at: number;
}): Promise<RetentionSettingsResponse> {
  await recordAudit(options.db, options.actor, {
    action: 'retention.read',
    subject: { type: 'institution', id: options.institutionId },
  });
  return describePolicy(options.db, options.institutionId, options.at);
}

/** Replaces the periods; the next purge follows them. The log keeps the old and new values. */
export async function updateRetentionSettings(options: {
  db: Executor;
  institutionId: number;
  actor: AuditActor;
  settings: RetentionSettings;
  at: number;
}): Promise<RetentionSettingsResponse> {
  const { db, institutionId, settings } = options;
  const before = toFields(await readRetentionPolicy(db, institutionId));
  await db
    .updateTable('institutions')
    .set({
      answers_retention_months: settings.answers_months,
      closed_cases_retention_months: settings.closed_cases_months,
      audit_retention_months: settings.audit_log_months,
    })
    .where('id', '=', institutionId)
    .execute();
  await recordAudit(db, options.actor, {
    action: 'retention.update',
    subject: { type: 'institution', id: institutionId },
    detail: { before, after: settings },
  });
  return describePolicy(db, institutionId, options.at);
}
