import { z } from 'zod';

/**
 * What went wrong, for clients to branch on; the message is for people and may change.
 * `REQUIRES_AUTH` is the spec's `requires_auth: true` case (a visitor must sign in to submit).
 */
export const ErrorCode = z.enum([
  'BAD_REQUEST', // 400: understood, but not acceptable (a rule of the product)
  'VALIDATION_FAILED', // 400: body, query or path does not match the contract
  'UNAUTHENTICATED', // 401: sign in first
  'REQUIRES_AUTH', // 401: answers kept; sign in, then submit again
  'FORBIDDEN', // 403: signed in, not allowed
  'CSRF_FAILED', // 403: fetch a fresh CSRF token and retry once
  'NOT_FOUND', // 404
  'CONFLICT', // 409: the state changed underneath the request
  'REQUEST_TIMEOUT', // 408: the body arrived too slowly
  'PAYLOAD_TOO_LARGE', // 413
  'URI_TOO_LONG', // 414: the address (a path parameter) is longer than any real one
  'UNSUPPORTED_MEDIA_TYPE', // 415
  'TOO_MANY_REQUESTS', // 429: wait (see Retry-After) and try again
  'HEADERS_TOO_LARGE', // 431: the request's headers (cookies, usually) are too large
  'INTERNAL', // 500: our fault
  'DATABASE_UNAVAILABLE', // 503: try again shortly (see Retry-After)
]);
export type ErrorCode = z.infer<typeof ErrorCode>;

/** Every failure the API returns has this shape (design: `{ success: false, code, message }`). */
export const ErrorResponse = z.object({
  success: z.literal(false),
  code: ErrorCode,
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

/** The largest id an integer column holds on both databases. */
const MAX_DATABASE_ID = 2_147_483_647;

/**
 * A database id: a positive integer, never anything else. `label` names the field in messages;
 * `notANumber` is the message for anything that is not a number, and `missing` (the same unless
 * given) for no value at all.
 */
export function databaseId(
  label: string,
  {
    notANumber = `${label} must be a number`,
    missing = notANumber,
  }: { notANumber?: string; missing?: string } = {},
) {
  return withIdRules(
    z.number({ error: (issue) => (issue.input === undefined ? missing : notANumber) }),
    label,
  );
}

function withIdRules<T extends z.ZodNumber | z.ZodCoercedNumber>(schema: T, label: string): T {
  return schema
    .int(`${label} must be a whole number`)
    .positive(`${label} must be positive`)
    .max(MAX_DATABASE_ID, `${label} is out of range`) as T;
}

/** A database id in a URL path, where it arrives as text. */
export const IdParam = withIdRules(z.coerce.number({ error: 'Id must be a number' }), 'Id');
