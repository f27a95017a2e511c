// The contract is written with zod's small build (zod/mini, its functional API): the web app parses
// every response with it, and the full build added about 14 KiB of compressed JavaScript to every
// page. Schemas, messages and the OpenAPI document are the same; the server accepts them as is.
import { z } from 'zod/mini';

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
  'ADDRESS_UNCONFIRMED', // 403: right password, but the address was never confirmed: ask for a new code
  'CSRF_FAILED', // 403: fetch a fresh CSRF token and retry once
  'SECOND_FACTOR_REQUIRED', // 403: staff signed in with a password alone; see `second_factor`
  'STEP_UP_REQUIRED', // 403: prove the second factor again (POST /api/second-factor/step-up/), then retry
  'NOT_FOUND', // 404
  'CONFLICT', // 409: the state changed underneath the request
  'CONNECTION_UNTESTED', // 409: test the single sign-on connection with these settings, then save again
  'LEGAL_HOLD', // 409: the student's data is under a legal hold: nothing of it may be erased
  'RECORDS_REQUEST_OPEN', // 409: the student's records request is still open: fulfil it before erasing
  'REQUEST_TIMEOUT', // 408: the body arrived too slowly
  'PAYLOAD_TOO_LARGE', // 413
  'URI_TOO_LONG', // 414: the address (a path parameter) is longer than any real one
  'UNSUPPORTED_MEDIA_TYPE', // 415
  'TOO_MANY_REQUESTS', // 429: wait (see Retry-After) and try again
  'HEADERS_TOO_LARGE', // 431: the request's headers (cookies, usually) are too large
  'INTERNAL', // 500: our fault
  'DATABASE_UNAVAILABLE', // 503: try again shortly (see Retry-After)
  'SHUTTING_DOWN', // 503: this instance is stopping; try again shortly (see Retry-After)
]);
export type ErrorCode = z.infer<typeof ErrorCode>;

/** Every failure the API returns has this shape (design: `{ success: false, code, message }`). */
export const ErrorResponse = z.object({
  success: z.literal(false),
  code: ErrorCode,
  message: z.string(),
  requires_auth: z.optional(z.boolean()),
  /** With SECOND_FACTOR_REQUIRED: set one up ('enrol') or prove the one set up ('verify'). */
  second_factor: z.optional(z.enum(['enrol', 'verify'])),
});
export type ErrorResponse = z.infer<typeof ErrorResponse>;

export const SuccessMessage = z.object({ success: z.literal(true), message: z.string() });
export type SuccessMessage = z.infer<typeof SuccessMessage>;

/** The longest address mail can carry (RFC 5321), and the longest any email field accepts. */
export const EMAIL_MAX_LENGTH = 254;

/** Emails are compared case-insensitively everywhere, so they are normalised on the way in. */
export const Email = z.pipe(
  z.pipe(
    z
      .string({ error: 'Email is required' })
      .check(z.trim(), z.maxLength(EMAIL_MAX_LENGTH, 'Email is too long')),
    z.email({ error: 'Enter a valid email address' }),
  ),
  z.transform((email: string) => email.toLowerCase()),
);

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
  return z
    .number({ error: (issue) => (issue.input === undefined ? missing : notANumber) })
    .check(...idRules(label));
}

function idRules(label: string) {
  return [
    z.int(`${label} must be a whole number`),
    z.positive(`${label} must be positive`),
    z.lte(MAX_DATABASE_ID, `${label} is out of range`),
  ] as const;
}

/** A database id in a URL path, where it arrives as text. */
export const IdParam = z.coerce.number({ error: 'Id must be a number' }).check(...idRules('Id'));

/**
 * `page` and `page_size` of a paged list's query: whole numbers, `page_size` at most `maxSize`,
 * each refused with a message naming it.
 */
export function pageParams(defaultSize: number, maxSize: number) {
  return {
    page: z._default(
      z.coerce
        .number({ error: 'page must be a number' })
        .check(
          z.int('page must be a whole number'),
          z.gte(1, 'page must be at least 1'),
          z.lte(100_000, 'page is out of range'),
        ),
      1,
    ),
    page_size: z._default(
      z.coerce
        .number({ error: 'page_size must be a number' })
        .check(
          z.int('page_size must be a whole number'),
          z.gte(1, 'page_size must be at least 1'),
          z.lte(maxSize, `page_size must be at most ${maxSize}`),
        ),
      defaultSize,
    ),
  };
}
