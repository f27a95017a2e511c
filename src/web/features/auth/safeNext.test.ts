import { describe, expect, it } from 'vitest';
import { safeNextPath } from './safeNext';

const ORIGIN = 'https://wellness.example.edu';
const next = (raw: string | null) => safeNextPath(raw, ORIGIN);

describe('safeNextPath', () => {
  it('keeps paths of this site, with their query and fragment', () => {
    expect(next('/dashboard/')).toBe('/dashboard/');
    expect(next('/survey/link/abc/?x=1#top')).toBe('/survey/link/abc/?x=1#top');
    expect(next('/survey/../dashboard/')).toBe('/dashboard/');
  });

  it('refuses other origins and protocol-relative addresses', () => {
    for (const raw of [
      null,
      '',
      'https://evil.example/',
      '//evil.example/',
      '/\\evil.example/',
      'javascript:alert(1)',
    ])
      expect(next(raw)).toBeNull();
  });

  it('refuses paths that become another origin once normalised', () => {
    for (const raw of [
      '/.//evil.example:8080/',
      '/%2e//evil.example/',
      '/%2E//evil.example/',
      '/survey/..//evil.example/',
      '/a/../..//evil.example/x',
      '/././/evil.example/',
    ]) {
      expect(next(raw), raw).toBeNull();
    }
  });
});
