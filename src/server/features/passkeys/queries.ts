import type { Executor } from '../../db/executor';
import type { PasskeyPurpose } from '../../db/types';

export function passkeysOf(db: Executor, userId: number) {
  return db
    .selectFrom('passkeys')
    .select(['credential_id', 'transports'])
    .where('user_id', '=', userId)
    .execute();
}

export function findPasskey(db: Executor, credentialId: string) {
  return db
    .selectFrom('passkeys')
    .select(['id', 'user_id', 'credential_id', 'public_key', 'counter', 'transports'])
    .where('credential_id', '=', credentialId)
    .executeTakeFirst();
}

export async function insertPasskey(
  db: Executor,
  passkey: {
    userId: number;
    credentialId: string;
    publicKey: string;
    counter: number;
    transports: string;
    at: number;
  },
) {
  await db
    .insertInto('passkeys')
    .values({
      user_id: passkey.userId,
      credential_id: passkey.credentialId,
      public_key: passkey.publicKey,
      counter: passkey.counter,
      transports: passkey.transports,
      created_at: passkey.at,
      last_used_at: null,
    })
    .execute();
}

export async function recordPasskeyUse(db: Executor, id: number, counter: number, at: number) {
  await db.updateTable('passkeys').set({ counter, last_used_at: at }).where('id', '=', id).execute();
}

export async function insertChallenge(
  db: Executor,
  challenge: { challenge: string; purpose: PasskeyPurpose; userId: number | null; expiresAt: number },
) {
  await db
    .insertInto('passkey_challenges')
    .values({
      challenge: challenge.challenge,
      purpose: challenge.purpose,
      user_id: challenge.userId,
      expires_at: challenge.expiresAt,
    })
    .execute();
}

/**
 * Spends a challenge: true once, if it was issued for this purpose (and user) and has not
 * expired. Expired challenges are swept on the way.
 */
export async function claimChallenge(
  db: Executor,
  claim: { challenge: string; purpose: PasskeyPurpose; userId: number | null; at: number },
): Promise<boolean> {
  await db.deleteFrom('passkey_challenges').where('expires_at', '<=', claim.at).execute();
  const result = await db
    .deleteFrom('passkey_challenges')
    .where('challenge', '=', claim.challenge)
    .where('purpose', '=', claim.purpose)
    .where((eb) => (claim.userId === null ? eb('user_id', 'is', null) : eb('user_id', '=', claim.userId)))
    .executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}
