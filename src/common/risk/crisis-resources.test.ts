import { describe, expect, it } from 'vitest';
import { z } from 'zod/mini';
import { CrisisResource, DEFAULT_CRISIS_RESOURCES } from './crisis-resources';

describe('crisis resources', () => {
  it('default to 988, the Crisis Text Line and 911', () => {
    expect(z.array(CrisisResource).parse(DEFAULT_CRISIS_RESOURCES)).toEqual(DEFAULT_CRISIS_RESOURCES);
    expect(DEFAULT_CRISIS_RESOURCES).toEqual([
      expect.objectContaining({ name: '988 Suicide & Crisis Lifeline', phone: '988', sms: '988' }),
      expect.objectContaining({ name: 'Crisis Text Line', sms: '741741', sms_body: 'HOME' }),
      expect.objectContaining({ name: 'Emergency services', phone: '911' }),
    ]);
  });

  it('accept an institution resource with only a web address', () => {
    const resource = {
      name: 'Campus Counselling',
      description: 'Same-day appointments.',
      url: 'https://uni.edu/help',
    };
    expect(CrisisResource.safeParse(resource).success).toBe(true);
  });

  it.each([
    ['a formatted phone number', { phone: '(555) 123-4567' }],
    ['a script link', { url: 'javascript:alert(1)' }],
    ['a plain http link', { url: 'http://uni.edu/help' }],
    ['no way to reach anyone', {}],
    ['a text message without a number', { url: 'https://uni.edu/help', sms_body: 'HELP' }],
  ])('reject %s', (_case, contact) => {
    const resource = { name: 'Campus Counselling', description: 'Same-day appointments.', ...contact };
    expect(CrisisResource.safeParse(resource).success).toBe(false);
  });
});
