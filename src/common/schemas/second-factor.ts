import { z } from 'zod/mini';
import { CurrentUser } from './auth';

/** A second factor for staff (design section 11): an authenticator app and recovery codes. */

export const RECOVERY_CODE_COUNT = 10;

/** The subject of every mail telling someone of a change to how they (or their institution) sign in. */
export const SIGN_IN_CHANGE_SUBJECT = 'A change to how you sign in';

/** An authenticator-app code (6 digits) or a recovery code; which one is told by its shape. */
const SecondFactorCode = z
  .string({ error: 'Enter the code' })
  .check(z.trim(), z.minLength(1, 'Enter the code'), z.maxLength(40, 'That code is too long'));

export const SecondFactorStatus = z.object({
  success: z.literal(true),
  /** An authenticator app is set up. */
  totp: z.boolean(),
  recovery_codes_left: z.number().check(z.int()),
});
export type SecondFactorStatus = z.infer<typeof SecondFactorStatus>;

export const TotpSetupResponse = z.object({
  success: z.literal(true),
  /** The secret as text, for apps that cannot scan (base32). */
  secret: z.string(),
  otpauth_uri: z.string(),
  /** The QR code of `otpauth_uri`, as an SVG data URL. */
  qr_code: z.string(),
});
export type TotpSetupResponse = z.infer<typeof TotpSetupResponse>;

export const TotpConfirmRequest = z.object({
  code: z
    .string({ error: 'Enter the 6-digit code from the app' })
    .check(z.trim(), z.regex(/^[0-9]{6}$/, 'Enter the 6-digit code from the app')),
});
export type TotpConfirmRequest = z.input<typeof TotpConfirmRequest>;

export const RecoveryCodesResponse = z.object({
  success: z.literal(true),
  message: z.string(),
  /** Shown once: only their hashes are kept. */
  recovery_codes: z.array(z.string()),
  user: CurrentUser,
});
export type RecoveryCodesResponse = z.infer<typeof RecoveryCodesResponse>;

export const SecondFactorVerifyRequest = z.object({ code: SecondFactorCode });
export type SecondFactorVerifyRequest = z.input<typeof SecondFactorVerifyRequest>;

export const SecondFactorVerifyResponse = z.object({
  success: z.literal(true),
  message: z.string(),
  user: CurrentUser,
});
export type SecondFactorVerifyResponse = z.infer<typeof SecondFactorVerifyResponse>;
