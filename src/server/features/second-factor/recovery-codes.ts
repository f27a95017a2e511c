import crypto from 'node:crypto';
import { RECOVERY_CODE_COUNT } from '../../../common/schemas/second-factor';

/** Letters and digits that cannot be mistaken for one another when copied by hand. */
const ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';
const LENGTH = 10;

/** A readable code of 10 characters (about 49 bits), shown as two groups of five. */
function newRecoveryCode(): string {
  let code = '';
  for (let index = 0; index < LENGTH; index += 1) code += ALPHABET[crypto.randomInt(ALPHABET.length)];
  return `${code.slice(0, 5)}-${code.slice(5)}`;
}

export function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
}

/** Case, spaces and the hyphen do not matter when a code is typed back. */
function normalizeRecoveryCode(input: string): string {
  return input.toLowerCase().replace(/[\s-]/g, '');
}

/**
 * A keyed hash tied to the user: the codes are random enough that a fast hash is safe, and a
 * copy of the database without the server secret cannot test guesses.
 */
export function hashRecoveryCode(key: Buffer, userId: number, code: string): string {
  return crypto
    .createHmac('sha256', key)
    .update(`${userId}\n${normalizeRecoveryCode(code)}`)
    .digest('hex');
}
