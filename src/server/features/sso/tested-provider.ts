import type { Executor } from '../../db/executor';
import { AppError } from '../../lib/errors';
import { HOUR, now } from '../../lib/time';
import * as queries from './queries';

/**
 * Single sign-on is switched on, or pointed at another provider or client, only once a connection
 * test of that very issuer and client has passed, and recently: a mistyped issuer would otherwise
 * lock out every student whose password sign-in it replaces. The screen says so too; this is what
 * holds whatever sends the request.
 */
export const TEST_VALID_FOR = HOUR;

export const UNTESTED =
  'Test the connection first: single sign-on is switched on, or moved to another provider, only after a successful test of the same issuer URL and client ID.';
export const TEST_OUTDATED =
  'The last successful connection test of this provider was more than an hour ago. Test the connection again, then save.';
export const TESTED_OTHER =
  'The last successful connection test was of another issuer URL or client ID. Test the connection with these settings, then save.';

interface Provider {
  issuer: string;
  clientId: string;
}

/** Keeps a test's outcome: a pass for these settings, or a failure that undoes their earlier pass. */
export async function recordTestOutcome(
  db: Executor,
  institutionId: number,
  tested: Provider & { passed: boolean },
): Promise<void> {
  if (tested.passed) await queries.savePassedTest(db, { institutionId, ...tested, at: now() });
  else await queries.forgetPassedTest(db, { institutionId, ...tested });
}

/**
 * A 409 `CONNECTION_UNTESTED` unless the provider being saved is the one already on (`current`,
 * null when single sign-on is off) or passed a test of the same issuer and client within the hour.
 * Domains, flags and a new client secret change no provider: they need no new test.
 */
export async function requireTestedProvider(
  db: Executor,
  institutionId: number,
  saving: Provider,
  current: Provider | null,
  at = now(),
): Promise<void> {
  if (current && current.issuer === saving.issuer && current.clientId === saving.clientId) return;
  const passed = await queries.passedTest(db, institutionId);
  const refuse = (message: string) => new AppError('CONNECTION_UNTESTED', message);
  if (!passed) throw refuse(UNTESTED);
  if (passed.issuer !== saving.issuer || passed.client_id !== saving.clientId) throw refuse(TESTED_OTHER);
  if (at - Number(passed.passed_at) > TEST_VALID_FOR) throw refuse(TEST_OUTDATED);
}
