import type { Kysely } from 'kysely';
import { emailDomain, institutionEmailProblem } from '../../../common/institution-email';
import { LINK_NOT_FOUND } from '../../../common/schemas/surveys';
import type { Executor } from '../../db/executor';
import { type CommitHooks, writeTransaction } from '../../db/transaction-runner';
import type { Database } from '../../db/types';
import { AppError } from '../../lib/errors';
import { now } from '../../lib/time';
import type { TransactionEvent } from '../../lib/transaction-event';
import type { ProvingVisitor } from '../../lib/visitor';
import { requireInstitutionEmail } from '../institutions';
import { institutionOfLink } from '../templates';
import { CODE_REFUSED, type CodeContext, issueCode, redeemCode } from './codes';
import * as queries from './queries';

export const CODE_SENT = (email: string) =>
  `We sent a code to ${email}. It works once, for 10 minutes. Check your inbox (and the spam folder).`;

/** The institution whose address this must be: the link's, or the one the domain belongs to. */
async function institutionFor(db: Kysely<Database>, email: string, hashLink: string | undefined) {
  const domain = emailDomain(email);
  if (hashLink !== undefined) {
    const institution = await institutionOfLink(db, hashLink);
    if (!institution) throw new AppError('NOT_FOUND', LINK_NOT_FOUND);
    await requireInstitutionEmail(db, institution, email);
  }
  const owner = await queries.institutionOfDomain(db, domain);
  if (!owner) throw new AppError('BAD_REQUEST', institutionEmailProblem(email, null));
  return owner;
}

/**
 * Sends this browser a one-time code for the address. The answer is the same for every address
 * of the institution, whether or not it has an account or has asked too often.
 */
export async function startVerification(options: {
  db: Kysely<Database>;
  context: CodeContext;
  email: string;
  hashLink?: string;
  visitorHash: string;
  clientAddress: string;
  language: string;
}) {
  const { db, context, email, visitorHash, clientAddress, language } = options;
  await institutionFor(db, email, options.hashLink);
  await writeTransaction(db, (trx) =>
    issueCode(trx, context, { email, visitorHash, clientAddress, at: now(), language }),
  );
  return { success: true as const, message: CODE_SENT(email) };
}

/** An address this browser has just proven with its code (surveys count its waiting answers). */
export interface AddressProven {
  visitorHash: string;
  email: string;
  at: number;
  /** The secrets of the unproven answers the proving tab sent (surveys/proof-tokens.ts). */
  proofTokens: readonly string[];
}

/**
 * Turns the browser's waiting registration of the address into the account; whether it did.
 * Given by the app (auth registers students), called inside the proof's transaction.
 */
export type CompleteRegistration = (
  trx: Executor,
  hooks: CommitHooks,
  proven: { visitorHash: string; email: string; at: number },
) => Promise<boolean>;

/** What follows a proof, given by the app (app.ts). */
export interface ProofFollowUps {
  addressProven: TransactionEvent<AddressProven>;
  completeRegistration: CompleteRegistration;
}

/**
 * Checks a code. The right one proves the address for this browser, which at once counts the
 * survey answers it sent in that name and, when it is a registration's code, completes the
 * registration it started for it. The browser takes on a new visitor id with the proof.
 */
export async function checkVerification(options: {
  db: Kysely<Database>;
  context: CodeContext;
  email: string;
  code: string;
  /** The secrets of the unproven answers the proving tab sent (surveys/proof-tokens.ts). */
  proofTokens: readonly string[];
  visitor: ProvingVisitor;
  followUps: ProofFollowUps;
}) {
  const { db, context, email, code, visitor, followUps } = options;
  const visitorHash = visitor.hash;
  const at = now();
  // A wrong code's used-up try must be kept, so the refusal is thrown after the commit.
  const outcome = await writeTransaction(db, async (trx, hooks) => {
    const purpose = await redeemCode(trx, context, {
      email,
      visitorHash,
      nextVisitorHash: visitor.nextHash,
      code,
      at,
    });
    if (!purpose) return null;
    await followUps.addressProven.announce(trx, hooks, {
      visitorHash,
      email,
      at,
      proofTokens: options.proofTokens,
    });
    // A code sent for anything else (a survey's) never turns a waiting registration into the
    // account: whoever planted this browser's id may have registered the address from it.
    const accountReady =
      purpose === 'registration' &&
      (await followUps.completeRegistration(trx, hooks, { visitorHash, email, at }));
    return { accountReady };
  });
  if (!outcome) throw new AppError('BAD_REQUEST', CODE_REFUSED);
  visitor.adoptNext();
  return {
    success: true as const,
    message: outcome.accountReady
      ? 'Your email address is confirmed and your account is ready. You can now log in.'
      : 'Your email address is confirmed. Thank you!',
    account_ready: outcome.accountReady,
  };
}
