import type { Kysely } from 'kysely';
import type { Database } from '../db/types';
import { acknowledgeCase, addCaseNote, type CaseWorker, resolveCase } from '../features/cases/service';
import type { AuditActor } from '../lib/audit';
import { elevatedCasesOldestFirst, firstAdmin } from './queries';

/**
 * Follow-up work on the demo's cases, so the Cases screen shows each state a real one does: the
 * demo admin has resolved the oldest elevated case and is working on the next one, through the
 * same service calls as the Cases screen (trail and audit log included). The urgent case and the
 * rest stay new, waiting for the visitor.
 */
export async function seedCaseWork(db: Kysely<Database>, institutionId: number): Promise<void> {
  const admin = await firstAdmin(db, institutionId);
  if (!admin) return;
  const worker: CaseWorker = {
    ...admin,
    role: 'institution_admin',
    institutionId,
    institutionName: null,
    institutionTimeZone: null,
    signInMethod: 'password',
    hasSecondFactor: false,
  };
  const actor: AuditActor = { institutionId, userId: admin.id, email: admin.email, address: null };
  const [resolved, inProgress] = await elevatedCasesOldestFirst(db, institutionId);
  if (resolved)
    await db.transaction().execute(async (trx) => {
      const caseId = resolved.id;
      await acknowledgeCase({ trx, worker, actor, caseId });
      await addCaseNote({ trx, worker, actor, caseId, text: 'Met after class; agreed on a study plan.' });
      await resolveCase({ trx, worker, actor, caseId, outcome: 'connected_to_counselling' });
    });
  if (inProgress)
    await db.transaction().execute(async (trx) => {
      const caseId = inProgress.id;
      await acknowledgeCase({ trx, worker, actor, caseId });
      await addCaseNote({ trx, worker, actor, caseId, text: 'Left a message; will call again tomorrow.' });
    });
}
