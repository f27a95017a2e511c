import type { Executor } from '../../db/executor';
import * as queries from './queries';
import { hashRecoveryCode, newRecoveryCodes } from './recovery-codes';

/**
 * Ten new recovery codes for the user, replacing any they had (used or not). Only their keyed
 * hashes are kept: the codes returned are shown this once.
 */
export async function issueRecoveryCodes(
  db: Executor,
  recoveryKey: Buffer,
  userId: number,
  at: number,
): Promise<string[]> {
  const codes = newRecoveryCodes();
  await queries.replaceRecoveryCodes(
    db,
    userId,
    codes.map((code) => hashRecoveryCode(recoveryKey, userId, code)),
    at,
  );
  return codes;
}
