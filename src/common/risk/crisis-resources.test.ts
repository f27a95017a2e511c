import { describe, expect, it } from 'vitest';
import { z } from 'zod/mini';
import { ALWAYS_OPEN_CRISIS_LINES, crisisHelpFor, repeatsAlwaysOpenLine } from './crisis-lines';
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
