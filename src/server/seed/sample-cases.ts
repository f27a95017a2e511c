import type { Kysely } from 'kysely';
import type { Database } from '../db/types';
import { elevatedCasesOldestFirst } from './queries';
import { type CaseWorkerName, settleSeededCase } from './sample-case-history';

/**
 * Follow-up work on the demo's open cases, so the Cases screen shows each state a real one does:
 * the admin resolved the oldest elevated case and is working on the next one, each picked up well
 * within its deadline. The urgent case and the rest stay new, waiting for the visitor.
 */
export async function seedCaseWork(
  db: Kysely<Database>,
  institutionId: number,
  history: Omit<Parameters<typeof settleSeededCase>[1], 'caseId' | 'keepOpen'> & { worker: CaseWorkerName },
): Promise<void> {
  const [resolved, inProgress] = await elevatedCasesOldestFirst(db, institutionId);
  if (resolved) await settleSeededCase(db, { ...history, caseId: resolved.id });
  if (inProgress) await settleSeededCase(db, { ...history, caseId: inProgress.id, keepOpen: true });
}
