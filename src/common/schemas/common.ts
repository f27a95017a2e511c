// The contract is written with zod's small build (zod/mini, its functional API): the web app parses
// every response with it, and the full build added about 14 KiB of compressed JavaScript to every
// page. Schemas, messages and the OpenAPI document are the same; the server accepts them as is.
import { z } from 'zod/mini';
import { EMAIL_MAX_LENGTH, ERROR_CODES } from './values';

export { ERROR_CODES };
/** What went wrong (ERROR_CODES). */
export const ErrorCode = z.enum(ERROR_CODES);
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

export { EMAIL_MAX_LENGTH };

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
/* @__NO_SIDE_EFFECTS__ */
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

/* @__NO_SIDE_EFFECTS__ */
function idRules(label: string) {
  return [
    z.int(`${label} must be a whole number`),
    z.positive(`${label} must be positive`),
    z.lte(MAX_DATABASE_ID, `${label} is out of range`),
  ] as const;
}

/** A database id in a URL path, where it arrives as text. */
// Marked pure, for the rules' call: a page that reads no path's id does not carry it.
export const IdParam = /*#__PURE__*/ z.coerce
  .number({ error: 'Id must be a number' })
  .check(...idRules('Id'));

/**
 * `page` and `page_size` of a paged list's query: whole numbers, `page_size` at most `maxSize`,
 * each refused with a message naming it.
 */
/* @__NO_SIDE_EFFECTS__ */
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
