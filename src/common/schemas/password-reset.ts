import { z } from 'zod/mini';
import { PASSWORD_MAX_LENGTH } from './auth';
import { Email } from './common';

/** How long a mailed link to choose a new password works. */
export const PASSWORD_RESET_LIFETIME_MINUTES = 30;

export const PasswordResetRequest = z.object({ email: Email });
export type PasswordResetRequest = z.infer<typeof PasswordResetRequest>;

/** Reset tokens are 43 characters of base64url; anything else is not one. */
export const PasswordResetToken = z
  .string()
  .check(z.regex(/^[A-Za-z0-9_-]{20,100}$/, 'This link does not work. Ask for a new one.'));

const password = z
  .string({ error: 'Please fill in all required fields' })
  .check(
    z.minLength(1, 'Please fill in all required fields'),
    z.maxLength(1024, `Password must be at most ${PASSWORD_MAX_LENGTH} characters`),
  );

export const ChooseNewPasswordRequest = z.object({ password, confirm_password: password });
export type ChooseNewPasswordRequest = z.infer<typeof ChooseNewPasswordRequest>;
