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
    name: string;
    at: number;
  },
) {
  await db
    .insertInto('passkeys')
    .values({
      name: passkey.name,
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

/** The owner's passkeys as they see them in their security settings, newest first. */
export function listPasskeysOf(db: Executor, userId: number) {
  return db
    .selectFrom('passkeys')
    .select(['id', 'name', 'created_at', 'last_used_at'])
    .where('user_id', '=', userId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
}

/** Deletes one of the owner's passkeys; its name, or undefined when the owner has no such passkey. */
export async function deletePasskeyOf(db: Executor, userId: number, id: number) {
  const row = await db
    .deleteFrom('passkeys')
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .returning(['id', 'name'])
    .executeTakeFirst();
  return row;
}

/** Who a passkey belongs to, for the audit log of an attempt to use it. */
export function passkeyOwner(db: Executor, userId: number) {
  return db
    .selectFrom('users')
    .select(['id', 'email', 'institution_id as institutionId'])
    .where('id', '=', userId)
    .executeTakeFirst();
}
