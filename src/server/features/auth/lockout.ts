import type { LoginLimits } from '../../config';
import type { Executor } from '../../db/executor';
import { AppError } from '../../lib/errors';
import { clearLimit, countHit, enforceLimit } from '../../lib/limits';
import { MINUTE, now, SECOND } from '../../lib/time';

/**
 * How failed passwords slow an account's sign-ins without ever locking its owner out.
 *
 * - Per client (a browser that signed in to the account before, by its signed `known_device`
 *   cookie, else the client address): a few failures, then that client waits out the window. A
 *   stranger only ever stops themself.
 * - Per account, for all browsers new to it together (guessing spread over many addresses):
 *   past a count, each further attempt waits for the account's turn, a delay that doubles with
 *   every attempt and never passes a cap (1 s ... 60 s by default), answered 429 with
 *   Retry-After. A hard stop here would let anyone with 11 addresses shut the owner out of every
 *   browser new to the account for the whole window; a delay bounds guessing to one attempt per
 *   cap at worst, and the owner with the right password gets in once the turn comes, at most the
 *   cap after the guessing stops (while it goes on, the owner's new browser shares the turns with
 *   the guesser). The owner's usual browser never waits at all.
 *
 * A delay rather than a mailed sign-in link: the link would be one more credential in mail
 * (and in the outbox), and the owner's known browser already walks past the account's delay.
 */

/** The lock lifts at most one window after it starts: waiting the window, rounded up, always works. */
export function accountThrottledMessage(windowMs: number): string {
  const minutes = Math.max(1, Math.ceil(windowMs / MINUTE));
  const wait = minutes === 1 ? '1 minute' : `${minutes} minutes`;
  return `Too many failed login attempts for this account. Please wait ${wait} and try again.`;
}

function accountBusyMessage(seconds: number): string {
  const wait = seconds === 1 ? '1 second' : `${seconds} seconds`;
  return `Many sign-ins to this account have failed lately. Please wait ${wait} and try again.`;
}

/** Who is signing in: the client address, and the browser's id if it signed in to the account before. */
export interface LoginClient {
  address: string;
  knownDevice: string | null;
}

/** The wait after the account's `excess`-th attempt from new browsers past the count (1 = first). */
export function newClientDelayMs(limits: LoginLimits, excess: number): number {
  const { firstMs, capMs } = limits.newClientDelay;
  // 2 ** 30 is far past any cap; the bound keeps the arithmetic finite however long guessing goes on.
  return Math.min(capMs, firstMs * 2 ** Math.min(excess - 1, 30));
}

const clientKey = (email: string, client: LoginClient) =>
  `login:account:${email}:${client.knownDevice ? `device:${client.knownDevice}` : `address:${client.address}`}`;
const newClientsKey = (email: string) => `login:account:${email}:new-clients`;
const turnKey = (email: string) => `login:account:${email}:new-clients-turn`;

/**
 * Takes the account's turn for a new browser: one statement, so two instances never hand the
 * same turn out twice. The turn is a limit_counters row whose expiry is when the next turn opens.
 * Returns when it opens if another attempt holds it, null when taken.
 */
async function takeTurn(db: Executor, email: string, at: number, waitMs: number): Promise<number | null> {
  const key = turnKey(email);
  const taken = await db
    .insertInto('limit_counters')
    .values({ key, hits: 1, window_started_at: at, expires_at: at + waitMs })
    .onConflict((oc) =>
      oc
        .column('key')
        .doUpdateSet({ hits: 1, window_started_at: at, expires_at: at + waitMs })
        .where('limit_counters.expires_at', '<=', at),
    )
    .returning('key')
    .executeTakeFirst();
  if (taken) return null;
  const held = await db
    .selectFrom('limit_counters')
    .select('expires_at')
    .where('key', '=', key)
    .executeTakeFirst();
  return held ? Number(held.expires_at) : at;
}

/**
 * Counts a sign-in attempt before its password is checked (so simultaneous guesses count too),
 * and refuses it (429) when its client has failed too often or, for a browser new to the
 * account, when the account's turn has not come yet.
 */
export async function admitLoginAttempt(
  db: Executor,
  email: string,
  client: LoginClient,
  limits: LoginLimits,
): Promise<void> {
  const { windowMs } = limits;
  const perClient = () =>
    enforceLimit(
      db,
      clientKey(email, client),
      { max: limits.failuresPerAccount, windowMs },
      accountThrottledMessage(windowMs),
    );
  if (client.knownDevice) {
    await perClient();
    return;
  }
  const at = now();
  const counted = await db
    .selectFrom('limit_counters')
    .select('hits')
    .where('key', '=', newClientsKey(email))
    .where('expires_at', '>', at)
    .executeTakeFirst();
  const excess = Number(counted?.hits ?? 0) - limits.failuresPerAccountFromNewClients + 1;
  if (excess > 0) {
    const opensAt = await takeTurn(db, email, at, newClientDelayMs(limits, excess));
    if (opensAt !== null) {
      const seconds = Math.max(1, Math.ceil((opensAt - at) / SECOND));
      throw new AppError('TOO_MANY_REQUESTS', accountBusyMessage(seconds), {}, seconds);
    }
  }
  // Only attempts that got their turn count, here and per client: a browser told to wait and
  // coming back when told (the owner's) never uses up its own few failures by waiting.
  await perClient();
  await countHit(db, newClientsKey(email), windowMs, at);
}

/** The right password from this client: its own failures are forgotten. */
export async function forgetClientFailures(db: Executor, email: string, client: LoginClient): Promise<void> {
  await clearLimit(db, clientKey(email, client));
}
