import { z } from 'zod/mini';
import { dialString } from '../schemas/values';

/**
 * A phone or text number as people write it: digits with spaces, dashes, dots or brackets
 * between them and an optional leading "+" (`555-0100`, `+1 617 555 0100`, `(617) 555-0100`).
 * It is shown as written and dialled as its digits (see `dialString`).
 */
const WRITTEN_NUMBER = /^\+?[0-9 ().-]+$/;
const MIN_DIGITS = 3;
const MAX_DIGITS = 15;
const MAX_WRITTEN_LENGTH = 30;

export { dialString };

function isWrittenNumber(written: string): boolean {
  const digits = written.replace(/\D/g, '').length;
  return WRITTEN_NUMBER.test(written) && digits >= MIN_DIGITS && digits <= MAX_DIGITS;
}

const WrittenNumber = (what: string) =>
  z.string().check(
    z.trim(),
    z.maxLength(MAX_WRITTEN_LENGTH, `${what} must be at most ${MAX_WRITTEN_LENGTH} characters`),
    z.refine(isWrittenNumber, {
      error: `${what} must be ${MIN_DIGITS} to ${MAX_DIGITS} digits, written with spaces, dashes, dots, brackets or a leading +, e.g. (617) 555-0100`,
    }),
  );

const MAX_HOURS_LENGTH = 80;
const HOURS_REQUIRED = 'Hours are required, e.g. "weekdays 8am-6pm" or "always open"';
const Hours = z
  .string({ error: HOURS_REQUIRED })
  .check(
    z.trim(),
    z.minLength(1, HOURS_REQUIRED),
    z.maxLength(MAX_HOURS_LENGTH, `Hours must be at most ${MAX_HOURS_LENGTH} characters`),
  );

const resourceFields = {
  name: z
    .string()
    .check(
      z.trim(),
      z.minLength(1, 'Name is required'),
      z.maxLength(100, 'Name must be at most 100 characters'),
    ),
  description: z
    .string()
    .check(
      z.trim(),
      z.minLength(1, 'Description is required'),
      z.maxLength(300, 'Description must be at most 300 characters'),
    ),
  phone: z.optional(WrittenNumber('Phone')),
  sms: z.optional(WrittenNumber('Text number')),
  sms_body: z.optional(
    z
      .string()
      .check(z.trim(), z.minLength(1), z.maxLength(160, 'Text message must be at most 160 characters')),
  ),
  url: z.optional(z.url({ protocol: /^https$/, error: 'Web address must start with https://' })),
  /**
   * The one language a resource is shown in (an institution's line answered in Spanish only);
   * without it, a resource is shown whatever the student reads.
   */
  language: z.optional(
    z.string().check(z.regex(/^[a-z]{2,3}(-[A-Z]{2})?$/, 'Language must be a language tag, e.g. es')),
  ),
};

type ResourceFields = { phone?: string; sms?: string; sms_body?: string; url?: string };
const reachable = [
  z.refine<ResourceFields>((resource) => resource.phone ?? resource.sms ?? resource.url, {
    error: 'A crisis resource needs a phone number, a text number or a web address',
  }),
  z.refine<ResourceFields>((resource) => resource.sms_body === undefined || resource.sms !== undefined, {
    error: 'A text message needs a text number',
    path: ['sms_body'],
  }),
];

/**
 * A service a student in crisis can reach, as shown to them. `hours` says when it is open; an
 * institution's resource saved before hours were asked for has none.
 */
export const CrisisResource = z.object({ ...resourceFields, hours: z.optional(Hours) }).check(...reachable);
export type CrisisResource = z.infer<typeof CrisisResource>;

/** An institution's own resource as an admin saves it: when it is open must be said. */
export const InstitutionCrisisResource = z.object({ ...resourceFields, hours: Hours }).check(...reachable);
export type InstitutionCrisisResource = z.infer<typeof InstitutionCrisisResource>;

/** What a student in crisis is shown: the always-open lines, and the institution's own. */
export const CrisisHelp = z.object({
  always_open: z.array(CrisisResource),
  institution: z.array(CrisisResource),
  /** The institution chose to list its own resources before the always-open lines. */
  institution_first: z.boolean(),
});
export type CrisisHelp = z.infer<typeof CrisisHelp>;
