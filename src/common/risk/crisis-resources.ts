import { z } from 'zod/mini';

// Digits only (an optional leading "+"), so the value can go straight into tel: and sms: links.
const DIALLABLE_NUMBER = /^\+?[0-9]{3,15}$/;

export const CrisisResource = z
  .object({
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
    phone: z.optional(z.string().check(z.regex(DIALLABLE_NUMBER, 'Phone must be digits only, e.g. 988'))),
    sms: z.optional(
      z.string().check(z.regex(DIALLABLE_NUMBER, 'Text number must be digits only, e.g. 741741')),
    ),
    sms_body: z.optional(
      z
        .string()
        .check(z.trim(), z.minLength(1), z.maxLength(160, 'Text message must be at most 160 characters')),
    ),
    url: z.optional(z.url({ protocol: /^https$/, error: 'Web address must start with https://' })),
  })
  .check(
    z.refine((resource) => resource.phone ?? resource.sms ?? resource.url, {
      error: 'A crisis resource needs a phone number, a text number or a web address',
    }),
    z.refine((resource) => resource.sms_body === undefined || resource.sms !== undefined, {
      error: 'A text message needs a text number',
      path: ['sms_body'],
    }),
  );
export type CrisisResource = z.infer<typeof CrisisResource>;

/** Shown to a student whose submission is urgent, unless the institution configured its own. */
export const DEFAULT_CRISIS_RESOURCES: CrisisResource[] = [
  {
    name: '988 Suicide & Crisis Lifeline',
    description: 'Call or text 988 to talk with someone right now. Free, confidential, 24/7.',
    phone: '988',
    sms: '988',
    url: 'https://988lifeline.org',
  },
  {
    name: 'Crisis Text Line',
    description: 'Text HOME to 741741 to reach a trained crisis counselor. Free, 24/7.',
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
