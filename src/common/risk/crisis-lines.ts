import { DEFAULT_LANGUAGE } from '../languages';
import { type CrisisHelp, type CrisisResource, dialString } from './crisis-resources';

/*
 * The lines every student in crisis is shown, in each language, and the rule that joins them with
 * an institution's own: the server's, the settings screen's and, for the language a student reads,
 * the crisis panel's (crisisHelpInLanguage). Apart from the schemas (crisis-resources.ts), which
 * the survey screens parse their answers with.
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

/**
 * The always-open lines as they are shown in a language other than English. A line is written in
 * that language only where its service answers in it: the 988 Lifeline has Spanish-speaking
 * counsellors (call 988 and press 2; text AYUDA to 988), so its Spanish form says how to reach
 * them. A line whose service answers in English only is shown as it is, so nobody is told of help
 * in a language it does not give. Emergency services answer in any language.
 */
const ALWAYS_OPEN_BY_LANGUAGE: Readonly<Record<string, readonly CrisisResource[]>> = {
  es: [
    {
      name: '988 Suicide & Crisis Lifeline (en español)',
      description:
        'Llama al 988 y marca 2, o envía AYUDA por mensaje de texto al 988, para hablar en español con alguien ahora mismo.',
      phone: '988',
      sms: '988',
      sms_body: 'AYUDA',
      url: 'https://988lifeline.org',
    },
    ALWAYS_OPEN_CRISIS_LINES[1] as CrisisResource,
    {
      name: 'Servicios de emergencia',
      description: 'Si estás en peligro inmediato, llama al 911.',
      phone: '911',
    },
  ],
};

/** The always-open lines as a student reading `language` is shown them (English for any other). */
export function alwaysOpenLinesFor(language: string = DEFAULT_LANGUAGE): readonly CrisisResource[] {
  return ALWAYS_OPEN_BY_LANGUAGE[language] ?? ALWAYS_OPEN_CRISIS_LINES;
}

/** Whether a resource is shown to a student reading `language`: one without a language always is. */
function shownIn(resource: CrisisResource, language: string): boolean {
  return resource.language === undefined || resource.language === language;
}

/**
 * The one rule for what a student sees: the always-open lines always, in the student's language,
 * and the institution's own added: those in the student's language and those for every language.
 */
export function crisisHelpFor(
  own: { resources: readonly CrisisResource[]; first: boolean },
  language: string = DEFAULT_LANGUAGE,
): CrisisHelp {
  const institution = own.resources.filter((resource) => shownIn(resource, language));
  return {
    always_open: [...alwaysOpenLinesFor(language)],
    institution,
    institution_first: own.first && institution.length > 0,
  };
}

/** The help a submission's answer carries, as shown to a student reading `language`. */
export function crisisHelpInLanguage(help: CrisisHelp, language: string): CrisisHelp {
  return crisisHelpFor({ resources: help.institution, first: help.institution_first }, language);
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
