import { type CrisisHelp, type CrisisResource, dialString } from './crisis-resources';

/*
 * The lines every student in crisis is shown, and the rule that joins them with an institution's
 * own: the server's and the settings screen's. Apart from the schemas (crisis-resources.ts), which
 * the survey screens parse their answers with, so those do not carry these.
 */

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
