import { z } from 'zod/mini';

/**
 * A phone or text number as people write it: digits with spaces, dashes, dots or brackets
 * between them and an optional leading "+" (`555-0100`, `+1 617 555 0100`, `(617) 555-0100`).
 * It is shown as written and dialled as its digits (see `dialString`).
 */
const WRITTEN_NUMBER = /^\+?[0-9 ().-]+$/;
const MIN_DIGITS = 3;
const MAX_DIGITS = 15;
const MAX_WRITTEN_LENGTH = 30;

/** The number as a phone dials it: its digits, after a "+" when it was written with one. */
export function dialString(written: string): string {
  const trimmed = written.trim();
  return `${trimmed.startsWith('+') ? '+' : ''}${trimmed.replace(/\D/g, '')}`;
}

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

/**
 * The national lines, open at any time, day or night: shown to every student whose submission is
 * urgent, whatever the institution adds (design section 5).
 */
export const ALWAYS_OPEN_CRISIS_LINES: readonly CrisisResource[] = [
  {
    name: '988 Suicide & Crisis Lifeline',
    description: 'Call or text 988 to talk with someone right now.',
    phone: '988',
    sms: '988',
    url: 'https://988lifeline.org',
  },
  {
    name: 'Crisis Text Line',
    description: 'Text HOME to 741741 to reach a trained crisis counselor.',
    sms: '741741',
    sms_body: 'HOME',
    url: 'https://www.crisistextline.org',
  },
  {
    name: 'Emergency services',
    description: 'If you are in immediate danger, call 911.',
    phone: '911',
  },
];

/** What a student in crisis is shown: the always-open lines, and the institution's own. */
export const CrisisHelp = z.object({
  always_open: z.array(CrisisResource),
  institution: z.array(CrisisResource),
  /** The institution chose to list its own resources before the always-open lines. */
  institution_first: z.boolean(),
});
export type CrisisHelp = z.infer<typeof CrisisHelp>;

/** The one rule for what a student sees: the always-open lines always, the institution's added. */
export function crisisHelpFor(own: { resources: readonly CrisisResource[]; first: boolean }): CrisisHelp {
  return {
    always_open: [...ALWAYS_OPEN_CRISIS_LINES],
    institution: [...own.resources],
    institution_first: own.first && own.resources.length > 0,
  };
}

/**
 * Whether a resource only repeats an always-open line: every number it gives is one of theirs.
 * Lists saved when an institution's resources replaced the national lines often copied them in.
 */
export function repeatsAlwaysOpenLine(resource: CrisisResource): boolean {
  const national = new Set(
    ALWAYS_OPEN_CRISIS_LINES.flatMap((line) => [line.phone, line.sms]).filter((n) => n !== undefined),
  );
  const numbers = [resource.phone, resource.sms].filter((n) => n !== undefined).map(dialString);
  return numbers.length > 0 && numbers.every((number) => national.has(number));
}
