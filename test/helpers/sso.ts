import type { Executor } from '../../src/server/db/executor';
import { savePassedTest } from '../../src/server/features/sso';

/**
 * Records that the institution's admin tested this issuer and client and it passed, for tests
 * whose subject is what follows the switching on (a provider that is down, a stand-in that is no
 * provider): single sign-on is switched on only after such a test.
 */
export async function passedConnectionTest(
  db: Executor,
  institutionId: number,
  provider: { issuer: string; clientId: string },
  at = Date.now(),
): Promise<void> {
  await savePassedTest(db, { institutionId, ...provider, at });
}
