import type { Kysely } from 'kysely';
import { writeTransaction } from '../../db/transaction-runner';
import type { Database } from '../../db/types';
import { now } from '../../lib/time';
import { CODE_SENT, type CodeContext, issueCode } from '../verify';
import { passwordOpensPendingRegistration } from './pending';

/**
 * Sends a new registration code for an address whose registration is still waiting, to this
 * browser, when the password is that registration's (which proves it is the registrant's): the
 * registration moves to this browser and waits another day. The code goes through the usual
 * allowances (verify/codes.ts). The answer is the same whatever the address or password.
 */
export async function resendRegistrationCode(options: {
  db: Kysely<Database>;
  context: CodeContext;
  email: string;
  password: string;
  visitorHash: string;
  clientAddress: string;
  language: string;
}): Promise<{ success: true; message: string }> {
  const { db, email, visitorHash } = options;
  const pending = await passwordOpensPendingRegistration(db, email, options.password);
  if (pending) {
    await writeTransaction(db, async (trx) => {
      const at = now();
      await trx
        .updateTable('pending_registrations')
        .set({ visitor_hash: visitorHash, created_at: at })
        .where('id', '=', pending.id)
        .execute();
      await issueCode(trx, options.context, {
        email,
        visitorHash,
        clientAddress: options.clientAddress,
        at,
        purpose: 'registration',
        language: options.language,
      });
    });
  }
  return { success: true, message: CODE_SENT(email) };
}
