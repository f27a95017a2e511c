import { z } from 'zod/mini';

/** The signed-in user's own account: their password and their sessions. */

const passwordField = /* @__NO_SIDE_EFFECTS__ */ (label: string) =>
  z
    .string({ error: `${label} is required` })
    .check(z.minLength(1, `${label} is required`), z.maxLength(1024, `${label} is too long`));

export const PasswordChangeRequest = z.object({
  current_password: passwordField('Current password'),
  new_password: passwordField('New password'),
  confirm_password: passwordField('Confirm new password'),
});
export type PasswordChangeRequest = z.infer<typeof PasswordChangeRequest>;

/** One of the user's open sessions: when it began and was last used, and how it signed in. */
export const AccountSession = z.object({
  created_at: z.string(),
  last_seen_at: z.string(),
  sign_in_method: z.string(),
  /** The session this answer was asked from. */
  current: z.boolean(),
});
export type AccountSession = z.infer<typeof AccountSession>;

export const AccountSessionList = z.object({ success: z.literal(true), sessions: z.array(AccountSession) });
export type AccountSessionList = z.infer<typeof AccountSessionList>;

export const OtherSessionsEnded = z.object({
  success: z.literal(true),
  message: z.string(),
  ended: z.number(),
});
export type OtherSessionsEnded = z.infer<typeof OtherSessionsEnded>;

/** The language the signed-in person reads the product's mail in: one the product has. */
export const LanguageChangeRequest = z.object({
  language: z
    .string({ error: 'Language is required' })
    .check(z.minLength(1, 'Language is required'), z.maxLength(35, 'Language is too long')),
});
export type LanguageChangeRequest = z.infer<typeof LanguageChangeRequest>;

export const LanguageChanged = z.object({
  success: z.literal(true),
  message: z.string(),
  language: z.string(),
});
export type LanguageChanged = z.infer<typeof LanguageChanged>;
