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

const deleteDraftQuery = reusableQuery((db, draft: { userId: number; templateId: number }) =>
  db.deleteFrom('drafts').where('user_id', '=', draft.userId).where('template_id', '=', draft.templateId),
);

export async function deleteDraft(db: Executor, userId: number, templateId: number) {
  await deleteDraftQuery(db, { userId, templateId });
}
