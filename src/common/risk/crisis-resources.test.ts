import { describe, expect, it } from 'vitest';
import { z } from 'zod/mini';
import {
  ALWAYS_OPEN_CRISIS_LINES,
  alwaysOpenLinesFor,
  crisisHelpFor,
  crisisHelpInLanguage,
  repeatsAlwaysOpenLine,
} from './crisis-lines';
import { CrisisResource, dialString, InstitutionCrisisResource } from './crisis-resources';

const campus = {
  name: 'Harbor College Counselling Centre',
  description: 'Same-day appointments.',
  hours: 'weekdays 8am-6pm',
};

describe('crisis resources', () => {
  it('the always-open lines are 988, the Crisis Text Line and 911', () => {
    expect(z.array(CrisisResource).parse(ALWAYS_OPEN_CRISIS_LINES)).toEqual(ALWAYS_OPEN_CRISIS_LINES);
    expect(ALWAYS_OPEN_CRISIS_LINES).toEqual([
      expect.objectContaining({ name: '988 Suicide & Crisis Lifeline', phone: '988', sms: '988' }),
      expect.objectContaining({ name: 'Crisis Text Line', sms: '741741', sms_body: 'HOME' }),
      expect.objectContaining({ name: 'Emergency services', phone: '911' }),
    ]);
  });

  it('accept an institution resource with only a web address', () => {
    expect(InstitutionCrisisResource.safeParse({ ...campus, url: 'https://uni.edu/help' }).success).toBe(
      true,
    );
  });

  it.each([
    ['555-0100', '5550100'],
    ['+1 617 555 0100', '+16175550100'],
    ['(617) 555-0100', '6175550100'],
    ['617.555.0100', '6175550100'],
    ['988', '988'],
    [' 741741 ', '741741'],
  ])('accept the phone number %s as written, dialled as %s', (written, dialled) => {
    const parsed = InstitutionCrisisResource.parse({ ...campus, phone: written, sms: written });
    expect(parsed.phone).toBe(written.trim());
    expect(parsed.sms).toBe(written.trim());
    expect(dialString(written)).toBe(dialled);
  });

  it.each([
    ['letters', { phone: '555-HELP' }],
    ['a "+" inside the number', { phone: '617+5550100' }],
    ['too few digits', { phone: '1-2' }],
    ['more digits than any number has', { phone: '+1 617 555 0100 0100 01' }],
    ['a text number with an extension', { sms: '555-0100 x12' }],
    ['a script link', { url: 'javascript:alert(1)' }],
    ['a plain http link', { url: 'http://uni.edu/help' }],
    ['no way to reach anyone', {}],
    ['a text message without a number', { url: 'https://uni.edu/help', sms_body: 'HELP' }],
  ])('reject %s', (_case, contact) => {
    expect(InstitutionCrisisResource.safeParse({ ...campus, ...contact }).success).toBe(false);
  });

  it("require an institution resource's hours, which the resources saved before them lack", () => {
    const { hours: _hours, ...withoutHours } = { ...campus, phone: '555-0100' };
    const missing = InstitutionCrisisResource.safeParse(withoutHours);
    expect(missing.success).toBe(false);
    expect(missing.error?.issues[0]?.path).toEqual(['hours']);
    expect(InstitutionCrisisResource.safeParse({ ...withoutHours, hours: '  ' }).success).toBe(false);
    expect(CrisisResource.safeParse(withoutHours).success).toBe(true);
  });

  it('show the always-open lines with or without the institution resources, in its chosen order', () => {
    const own = { ...campus, phone: '555-0100' };
    expect(crisisHelpFor({ resources: [], first: true })).toEqual({
      always_open: ALWAYS_OPEN_CRISIS_LINES,
      institution: [],
      institution_first: false,
    });
    expect(crisisHelpFor({ resources: [own], first: false })).toEqual({
      always_open: ALWAYS_OPEN_CRISIS_LINES,
      institution: [own],
      institution_first: false,
    });
    expect(crisisHelpFor({ resources: [own], first: true })).toMatchObject({ institution_first: true });
  });

  it('recognise a copy of an always-open line by its numbers, as written', () => {
    const copy = (contact: object) => ({ name: 'Lifeline', description: 'Call or text.', ...contact });
    expect(repeatsAlwaysOpenLine(copy({ phone: '988', sms: '988' }))).toBe(true);
    expect(repeatsAlwaysOpenLine(copy({ sms: '741-741' }))).toBe(true);
    expect(repeatsAlwaysOpenLine(copy({ phone: '911' }))).toBe(true);
    expect(repeatsAlwaysOpenLine(copy({ phone: '988', sms: '555-0100' }))).toBe(false);
    expect(repeatsAlwaysOpenLine(copy({ url: 'https://988lifeline.org' }))).toBe(false);
  });
});

describe('crisis resources per language', () => {
  const everywhere = { ...campus, phone: '555-0100' };
  const spanishOnly = { ...campus, name: 'Línea del campus', phone: '555-0101', language: 'es' };

  it('shows the 988 Lifeline to a student reading Spanish in its Spanish form: call 988 and press 2, or text AYUDA to 988', () => {
    const lines = alwaysOpenLinesFor('es');
    expect(z.array(CrisisResource).parse(lines)).toEqual(lines);
    expect(lines).toEqual([
      expect.objectContaining({
        phone: '988',
        sms: '988',
        sms_body: 'AYUDA',
        url: 'https://988lifeline.org',
      }),
      // The Crisis Text Line is shown as it is: its Spanish service is not one this list states.
      ALWAYS_OPEN_CRISIS_LINES[1],
      expect.objectContaining({ phone: '911', description: 'Si estás en peligro inmediato, llama al 911.' }),
    ]);
    expect(lines[0]?.description).toContain('marca 2');
  });

  it('gives the same numbers in every language, so none is ever left out', () => {
    const numbers = (lines: readonly CrisisResource[]) => lines.map((line) => [line.phone, line.sms]);
    expect(numbers(alwaysOpenLinesFor('es'))).toEqual(numbers(ALWAYS_OPEN_CRISIS_LINES));
  });

  it('shows English lines for English and for a language without its own', () => {
    expect(alwaysOpenLinesFor('en')).toEqual(ALWAYS_OPEN_CRISIS_LINES);
    expect(alwaysOpenLinesFor('fr')).toEqual(ALWAYS_OPEN_CRISIS_LINES);
    expect(alwaysOpenLinesFor()).toEqual(ALWAYS_OPEN_CRISIS_LINES);
  });

  it("shows an institution's entry for one language only in it, and an entry without a language in all", () => {
    const own = { resources: [everywhere, spanishOnly], first: true };
    expect(crisisHelpFor(own, 'es')).toEqual({
      always_open: alwaysOpenLinesFor('es'),
      institution: [everywhere, spanishOnly],
      institution_first: true,
    });
    expect(crisisHelpFor(own, 'en')).toEqual({
      always_open: ALWAYS_OPEN_CRISIS_LINES,
      institution: [everywhere],
      institution_first: true,
    });
    // Listed first only when something of the institution's is left to list.
    expect(crisisHelpFor({ resources: [spanishOnly], first: true }, 'en').institution_first).toBe(false);
  });

  it('turns the help an answer carried into the language the student reads', () => {
    const help = crisisHelpFor({ resources: [everywhere, spanishOnly], first: false }, 'es');
    expect(crisisHelpInLanguage(help, 'en')).toEqual(
      crisisHelpFor({ resources: [everywhere], first: false }, 'en'),
    );
    expect(crisisHelpInLanguage(help, 'es')).toEqual(help);
  });

  it('accepts a language tag on a resource and refuses anything else', () => {
    expect(InstitutionCrisisResource.safeParse(spanishOnly).success).toBe(true);
    expect(InstitutionCrisisResource.safeParse({ ...spanishOnly, language: 'Spanish' }).success).toBe(false);
  });
});
