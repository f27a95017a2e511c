import type { Executor } from '../../db/executor';
import { decoyPasswordHash, verifyPassword } from '../../lib/passwords';
import { DAY, now } from '../../lib/time';

/** As long as a registration waits for its code (auth/service.ts): a day. */
const PENDING_LIFETIME = DAY;

/** Said at login when the password is right for a registration whose address was never confirmed. */
export const ADDRESS_UNCONFIRMED_MESSAGE =
  'Your email address is not confirmed yet. Send a new code to your address and enter it to finish registering.';

function newestPending(db: Executor, email: string, at: number) {
  return db
    .selectFrom('pending_registrations')
    .select(['id', 'password_hash'])
    .where('email', '=', email)
    .where('created_at', '>=', at - PENDING_LIFETIME)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/**
 * Whether the password is right for the address's newest registration still waiting for its
 * code. One password hash is checked whether or not one waits (the decoy otherwise), so an
 * address with an account, one waiting and one unknown all take the same time to refuse. Only
 * the newest counts: each extra check would be time that tells.
 */
export async function passwordOpensPendingRegistration(
  db: Executor,
  email: string,
  password: string,
): Promise<{ id: number } | null> {
  const pending = await newestPending(db, email, now());
  const valid = await verifyPassword(pending?.password_hash ?? (await decoyPasswordHash()), password);
  return pending && valid ? { id: pending.id } : null;
}
