import type { Executor } from '../../db/executor';
import { reusableQuery } from '../../db/reusable-query';

export function findDraft(db: Executor, userId: number, templateId: number) {
  return db
    .selectFrom('drafts')
    .select(['data', 'updated_at'])
    .where('user_id', '=', userId)
    .where('template_id', '=', templateId)
    .executeTakeFirst();
}

export async function saveDraft(
  db: Executor,
  draft: { userId: number; templateId: number; data: string; updatedAt: number },
) {
  await db
    .insertInto('drafts')
    .values({
      user_id: draft.userId,
      template_id: draft.templateId,
      data: draft.data,
      updated_at: draft.updatedAt,
    })
    .onConflict((oc) =>
      oc.columns(['user_id', 'template_id']).doUpdateSet({ data: draft.data, updated_at: draft.updatedAt }),
    )
    .execute();
}

/** Creates the draft only when there is none; false when one exists already. */
export async function insertDraftIfNone(
  db: Executor,
  draft: { userId: number; templateId: number; data: string; updatedAt: number },
): Promise<boolean> {
  const result = await db
    .insertInto('drafts')
    .values({
      user_id: draft.userId,
      template_id: draft.templateId,
      data: draft.data,
      updated_at: draft.updatedAt,
    })
    .onConflict((oc) => oc.columns(['user_id', 'template_id']).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

/** Replaces the draft only if it is still the version `baseUpdatedAt`; false otherwise. */
export async function updateDraftIfUnchanged(
  db: Executor,
  draft: { userId: number; templateId: number; data: string; updatedAt: number; baseUpdatedAt: number },
): Promise<boolean> {
  const result = await db
    .updateTable('drafts')
    .set({ data: draft.data, updated_at: draft.updatedAt })
    .where('user_id', '=', draft.userId)
    .where('template_id', '=', draft.templateId)
    .where('updated_at', '=', draft.baseUpdatedAt)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

const deleteDraftQuery = reusableQuery((db, draft: { userId: number; templateId: number }) =>
  db.deleteFrom('drafts').where('user_id', '=', draft.userId).where('template_id', '=', draft.templateId),
);

export async function deleteDraft(db: Executor, userId: number, templateId: number) {
  await deleteDraftQuery(db, { userId, templateId });
}
