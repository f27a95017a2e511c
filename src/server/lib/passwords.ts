import { hash, verify } from '@node-rs/argon2';
import { ZxcvbnFactory } from '@zxcvbn-ts/core';
import * as zxcvbnCommon from '@zxcvbn-ts/language-common';
import * as zxcvbnEnglish from '@zxcvbn-ts/language-en';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../../common/schemas/auth';

// OWASP's argon2id recommendation (m=19 MiB, t=2, p=1). Algorithm 2 is argon2id.
const ARGON2_OPTIONS = { algorithm: 2, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, ARGON2_OPTIONS);
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

/** A hash to verify against when the account does not exist, so timing does not reveal it. */
let decoyHash: Promise<string> | undefined;
export function decoyPasswordHash(): Promise<string> {
  decoyHash ??= hashPassword('decoy-password-for-timing');
  return decoyHash;
}

/** Who the password is for: what an attacker who knows them would try first. */
interface PasswordContext {
  email: string;
  name: string;
  institutionName?: string | null;
  brandName?: string;
}

/** Words about the product itself, which anyone who sees a page of it knows. */
const PRODUCT_WORDS = ['wellspring', 'wellness', 'health', 'survey', 'check-in', 'student', 'university'];

/** zxcvbn's score (0 to 4) a new password must reach: "safely unguessable" in its own terms. */
const MIN_PASSWORD_SCORE = 3;

// Built on first use: loading the dictionaries takes a moment the start should not pay for.
let strength: ZxcvbnFactory | undefined;
function estimator(): ZxcvbnFactory {
  strength ??= new ZxcvbnFactory({
    dictionary: { ...zxcvbnCommon.dictionary, ...zxcvbnEnglish.dictionary },
    graphs: zxcvbnCommon.adjacencyGraphs,
    translations: zxcvbnEnglish.translations,
  });
  return strength;
}

/** The account's own data: whole, run together, and in parts (email local part, domain labels, words). */
function userInputs(context: PasswordContext): string[] {
  const [local = '', domain = ''] = context.email.toLowerCase().split('@');
  const phrases = [context.name, context.institutionName ?? '', context.brandName ?? ''];
  return [
    context.email,
    local,
    domain,
    ...domain.split('.'),
    ...phrases,
    ...phrases.map((phrase) => phrase.replace(/[\s\-_.,]+/g, '')),
    ...phrases.flatMap((phrase) => phrase.split(/[\s\-_.,]+/)),
    ...PRODUCT_WORDS,
  ].filter((word) => word.length >= 3);
}

/**
 * Returns why a new password is unacceptable, or null when it is fine. The one home of the
 * password rule (NIST SP 800-63B, 5.1.1.2): 8 to 128 characters, and hard to guess for an attacker
 * who tries common passwords, dictionary words, keyboard patterns, dates and the account's own
 * details first (zxcvbn-ts with its common and English dictionaries). The message says why.
 */
export function passwordProblem(password: string, context: PasswordContext): string | null {
  if (password.length < PASSWORD_MIN_LENGTH)
    return `Password must be at least ${PASSWORD_MIN_LENGTH} characters`;
  if (password.length > PASSWORD_MAX_LENGTH)
    return `Password must be at most ${PASSWORD_MAX_LENGTH} characters`;
  const result = estimator().check(password, userInputs(context));
  if (result.score >= MIN_PASSWORD_SCORE) return null;
  const why = [result.feedback.warning, ...result.feedback.suggestions].filter(Boolean).join(' ');
  return `This password is too easy to guess. ${why || 'Add more words that are less common.'}`.trim();
}
