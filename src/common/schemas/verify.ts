import { z } from 'zod/mini';
import { Email } from './common';
import { PROOF_TOKENS_MAX, VERIFICATION_CODE_LENGTH, VERIFICATION_CODE_PATTERN } from './values';

/** Proving an address with a one-time code (design section 8, contract section 12). */

export { PROOF_TOKENS_MAX, VERIFICATION_CODE_LENGTH };

export const VerifyStartRequest = z.object({
  email: Email,
  /** The shared link being answered: the address must then be one of its institution's. */
  hash_link: z.optional(
    z.string({ error: 'hash_link must be text' }).check(z.maxLength(100, 'hash_link is too long')),
  ),
});
export type VerifyStartRequest = z.input<typeof VerifyStartRequest>;

/** A code as the mail gives it: its digits and nothing else, spaces around them forgiven. */
export const VerificationCode = z
  .string({ error: 'Enter the code from the mail' })
  .check(
    z.trim(),
    z.regex(VERIFICATION_CODE_PATTERN, `The code is the ${VERIFICATION_CODE_LENGTH} digits from the mail`),
  );

export const VerifyCheckRequest = z.object({
  email: Email,
  code: VerificationCode,
  /** The secrets of the survey answers this tab sent unproven (proof_token): they count once proven. */
  proof_tokens: z._default(
    z
      .array(
        z.string({ error: 'proof_tokens must be text' }).check(z.maxLength(64, 'A proof token is too long')),
        { error: 'proof_tokens must be a list' },
      )
      .check(z.maxLength(PROOF_TOKENS_MAX, `At most ${PROOF_TOKENS_MAX} proof tokens`)),
    [],
  ),
});
export type VerifyCheckRequest = z.input<typeof VerifyCheckRequest>;

export const VerifyStartResponse = z.object({ success: z.literal(true), message: z.string() });
export type VerifyStartResponse = z.infer<typeof VerifyStartResponse>;

export const VerifyCheckResponse = z.object({
  success: z.literal(true),
  message: z.string(),
  /** True when proving the address completed this browser's registration: the account can sign in. */
  account_ready: z.boolean(),
});
export type VerifyCheckResponse = z.infer<typeof VerifyCheckResponse>;
