import { describe, expect, it } from 'vitest';
import { passwordProblem } from './passwords';

const student = {
  email: 'robin.link@north.edu',
  name: 'Robin Link',
  institutionName: 'North University',
  brandName: 'Wellspring',
};

describe('passwordProblem', () => {
  it.each([
    'aaaaaaaa',
    '        ',
    'abcdefgh',
    'qwerty1234',
    'Summer2024',
    'password123',
    'wellness-demo',
    'robin.link@north.edu',
    'North University',
    'northuniversity',
    'RobinLink2024',
    'Wellspring2024',
  ])('refuses %j and says why', (password) => {
    const problem = passwordProblem(password, student);
    expect(problem).toMatch(/^This password is too easy to guess\. \S/);
  });

  it('names the reason zxcvbn found', () => {
    expect(passwordProblem('aaaaaaaa', student)).toContain(
      'Repeated characters like "aaa" are easy to guess.',
    );
    expect(passwordProblem('qwerty1234', student)).toContain('This is a commonly used password.');
    expect(passwordProblem('robin.link@north.edu', student)).toContain(
      'There should not be any personal or page related data.',
    );
  });

  it('refuses the published demo password for any account, not only demo ones', () => {
    expect(
      passwordProblem('wellness-demo', {
        email: 'dean@west.edu',
        name: 'Dana Dean',
        institutionName: 'West',
      }),
    ).not.toBeNull();
  });

  it('refuses passwords outside 8 to 128 characters', () => {
    expect(passwordProblem('Zq7#vLp', student)).toBe('Password must be at least 8 characters');
    expect(passwordProblem('Zq7#vLp2x'.repeat(15), student)).toBe('Password must be at most 128 characters');
  });

  it('accepts passphrases that are hard to guess', () => {
    for (const password of ['correct-horse-battery', 'Calm-Harbor-Lantern-42', 'gravel orchid tuesday ferry'])
      expect(passwordProblem(password, student), password).toBeNull();
  });
});
