import crypto from 'node:crypto';
import type { Executor } from '../../db/executor';
import type { CodePurpose } from '../../db/types';
import { translate } from '../../lib/i18n';
import { countHit } from '../../lib/limits';
import { enqueueMail } from '../../lib/mail/outbox';
import { HOUR, MINUTE } from '../../lib/time';
import { LIMITS } from '../../limit-table';
import * as queries from './queries';

/** Design section 8: 6 digits, 10 minutes, 5 tries, single use, stored hashed. */
const CODE_LIFETIME = 10 * MINUTE;
export const CODE_TRIES = 5;
/**
 * How many codes an address is mailed in an hour. Each rule is one a stranger cannot turn against
 * the owner on their own:
 * - from one client address, a few new codes (a stranger spends their own allowance only);
 * - from all clients together, a ceiling against flooding the mailbox from many addresses;
 * - a browser that already holds a live code for the address gets a fresh one up to its own few,
 *   whatever the other two say: the owner who asked first still gets a resend while someone
 *   else spends the ceiling.
 */
export const CODES_PER_ADDRESS_PER_CLIENT_PER_HOUR = LIMITS.codesPerAddressPerClient.max;
export const CODES_PER_ADDRESS_PER_HOUR = LIMITS.codesPerAddress.max;
export const CODES_PER_ADDRESS_PER_BROWSER_PER_HOUR = LIMITS.codesPerAddressPerBrowser.max;
/** How long a browser's proof of an address lasts: a working day, like a signed-in session. */
export const PROOF_LIFETIME = 12 * HOUR;

export const CODE_REFUSED = 'This code is not right or has expired. Check the mail, or ask for a new code.';

/** What a browser needs to know to ask for and check codes. */
export interface CodeContext {
  /** Keys the code hashes: a stolen database does not give away codes by a table of a million. */
  codeKey: Buffer;
  brandName: string;
}

function hashCode(key: Buffer, visitorHash: string, email: string, code: string): string {
  return crypto.createHmac('sha256', key).update(`${visitorHash}\n${email}\n${code}`).digest('hex');
}

const CODE_SUBJECT = /*i18n*/ { id: 'mail.code.subject', message: 'Your {brand} Health code: {code}' };
const CODE_BODY = /*i18n*/ {
  id: 'mail.code.body',
  message:
    'Your {brand} Health code is {code}\n\nEnter it on the page that asked for it. It works once, for 10 minutes.\nIf you did not ask for a code, you can ignore this mail.',
};

/** The mail that carries a code: the code and nothing about the person's answers. */
function codeMail(brandName: string, email: string, code: string, language: string) {
  const values = { brand: brandName, code };
  return {
    to: email,
    subject: translate(language, CODE_SUBJECT, values),
    text: translate(language, CODE_BODY, values),
  };
}

/** Whether this browser may be mailed a code for the address now (CODES_PER_ADDRESS_*). */
async function mayMailCode(
  trx: Executor,
  request: { email: string; visitorHash: string; clientAddress: string; at: number },
): Promise<boolean> {
  const { email, visitorHash, at } = request;
  // The three rules share one window (an hour), the codes table being counted over it.
  const since = at - LIMITS.codesPerAddress.windowMs;
  const byBrowser = await queries.countCodesSince(trx, { email, visitorHash, since });
  if (byBrowser >= CODES_PER_ADDRESS_PER_BROWSER_PER_HOUR) return false;
  // Counted for every request, so a client that keeps asking stays refused for the hour.
  const byClient = await countHit(
    trx,
    `verify:address:${email}:client:${request.clientAddress}`,
    LIMITS.codesPerAddressPerClient.windowMs,
    at,
  );
  if (await queries.holdsLiveCode(trx, { email, visitorHash, at, tries: CODE_TRIES })) return true;
  if (byClient.hits > CODES_PER_ADDRESS_PER_CLIENT_PER_HOUR) return false;
  return (await queries.countCodesSince(trx, { email, since })) < CODES_PER_ADDRESS_PER_HOUR;
}

/**
 * Sends this browser a new code for the address, in the caller's transaction. Past the hourly
 * allowances (mayMailCode) it quietly sends nothing, so the answer never differs.
 */
export async function issueCode(
  trx: Executor,
  context: CodeContext,
  request: {
    email: string;
    visitorHash: string;
    clientAddress: string;
    at: number;
    purpose?: CodePurpose;
    /** The language of the request that asked for the code (lib/languages.ts). */
    language: string;
  },
): Promise<void> {
  const { email, visitorHash, at } = request;
  if (!(await mayMailCode(trx, request))) return;
  const code = crypto.randomInt(0, 1_000_000).toString().padStart(6, '0');
  await queries.insertCode(trx, {
    email,
    visitor_hash: visitorHash,
    code_hash: hashCode(context.codeKey, visitorHash, email, code),
    expires_at: at + CODE_LIFETIME,
    used_at: null,
    created_at: at,
    purpose: request.purpose ?? 'address',
  });
  await enqueueMail(trx, codeMail(context.brandName, email, code, request.language), at);
}

/**
 * Checks a code this browser received for the address. A wrong code uses up one of its tries;
 * the right one is used up itself and proves the address for this browser, under the id it
 * takes on with the proof (lib/visitor.ts). Returns what the code was sent for, or null.
 */
export async function redeemCode(
  trx: Executor,
  context: CodeContext,
  attempt: { email: string; visitorHash: string; nextVisitorHash: string; code: string; at: number },
): Promise<CodePurpose | null> {
  const { email, visitorHash, at } = attempt;
  const live = await queries.lockLiveCode(trx, { email, visitorHash, at });
  if (!live || live.attempts >= CODE_TRIES) return null;
  const expected = Buffer.from(live.code_hash, 'hex');
  const given = Buffer.from(hashCode(context.codeKey, visitorHash, email, attempt.code), 'hex');
  if (!crypto.timingSafeEqual(expected, given)) {
    await queries.countFailedTry(trx, live.id);
    return null;
  }
  await queries.markCodeUsed(trx, live.id, at);
  await queries.recordProof(trx, { visitorHash: attempt.nextVisitorHash, email, at });
  return live.purpose;
}

/** Whether this browser proved the address recently. */
export function isProvenBy(db: Executor, proof: { visitorHash: string; email: string; at: number }) {
  return queries.provenSince(db, { ...proof, since: proof.at - PROOF_LIFETIME });
}
