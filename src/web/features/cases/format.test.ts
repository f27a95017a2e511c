import { afterAll, describe, expect, it } from 'vitest';
import { activateLanguage } from '../../app/i18n';
import { categoryLabel, formatChange, formatDuration, TIER_LABELS } from './format';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

afterAll(() => activateLanguage('en', ['staff']));

describe('case figures in words', () => {
  it('says spans, changes, tiers and categories in English as staff have always read them', async () => {
    await activateLanguage('en', ['staff']);
    expect([400, 40_000, 12 * MINUTE, 3.5 * HOUR, 50.4 * HOUR].map(formatDuration)).toEqual([
      '0.4 s',
      '40 s',
      '12 min',
      '3.5 h',
      '2.1 days',
    ]);
    expect(formatDuration(null)).toBe('–');
    expect([1.25, -0.5, 0, undefined].map(formatChange)).toEqual(['+1.3', '−0.5', '±0', '']);
    expect(TIER_LABELS.urgent).toBe('Urgent');
    expect(categoryLabel('sleep')).toBe('Sleep');
    expect(categoryLabel('a category from a newer server')).toBe('a category from a newer server');
  });

  it('writes the decimals of the page language', async () => {
    await activateLanguage('es', ['staff']);
    expect(formatDuration(3.5 * HOUR)).toBe('3,5 h');
    expect(formatChange(-0.5)).toBe('−0,5');
  });
});
