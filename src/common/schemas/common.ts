import { z } from 'zod';

/** Every failure the API returns has this shape (design: `{ success: false, message }`). */
export const ErrorResponse = z.object({
  success: z.literal(false),
  message: z.string(),
  requires_auth: z.boolean().optional(),
});
export type ErrorResponse = z.infer<typeof ErrorResponse>;

export const SuccessMessage = z.object({ success: z.literal(true), message: z.string() });
export type SuccessMessage = z.infer<typeof SuccessMessage>;

/** Emails are compared case-insensitively everywhere, so they are normalised on the way in. */
export const Email = z
  .string({ error: 'Email is required' })
  .trim()
  .max(254, 'Email is too long')
  .pipe(z.email({ error: 'Enter a valid email address' }))
  .transform((email) => email.toLowerCase());

/** A database id in a URL path: a positive integer, never anything else. */
export const IdParam = z.coerce
  .number({ error: 'Id must be a number' })
  .int('Id must be a whole number')
  .positive('Id must be positive')
  .max(2_147_483_647, 'Id is out of range');
