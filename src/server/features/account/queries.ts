import type { Executor } from '../../db/executor';

export function passwordHashOf(db: Executor, userId: number) {
  return db
    .selectFrom('users')
    .select('password_hash')
    .where('id', '=', userId)
    .where('removed_at', 'is', null)
    .executeTakeFirst();
}

export async function setPasswordHash(db: Executor, userId: number, passwordHash: string): Promise<void> {
  await db.updateTable('users').set({ password_hash: passwordHash }).where('id', '=', userId).execute();
}

export async function setLanguage(db: Executor, userId: number, language: string): Promise<void> {
  await db.updateTable('users').set({ language }).where('id', '=', userId).execute();
}
