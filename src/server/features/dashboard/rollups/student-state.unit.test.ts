import { describe, expect, it } from 'vitest';
import { dashboardMonths, dayOf, monthLabel, monthOf } from './calendar';
import { flagPriority, isNewer, latestContribution, latestDelta, summariseAnswers } from './student-state';

const latest = (overrides: Partial<Parameters<typeof latestContribution>[0] & object> = {}) => ({
  submissionId: 1,
  submittedAt: 1_000,
  tier: 'none' as const,
  sleepMean: null,
  stressMean: null,
  ...overrides,
});

describe('calendar', () => {
  it('numbers UTC months consecutively and labels them like "Dec 2025"', () => {
    const december = monthOf(Date.parse('2025-12-31T23:59:59.999Z'));
    expect(monthOf(Date.parse('2026-01-01T00:00:00Z'))).toBe(december + 1);
    expect(monthLabel(december)).toBe('Dec 2025');
    expect(monthLabel(december + 1)).toBe('Jan 2026');
  });

  it('ends the 12 dashboard months with the current one', () => {
    const months = dashboardMonths(Date.parse('2026-02-10T00:00:00Z')).map(monthLabel);
    expect(months).toEqual([
      'Mar 2025',
      'Apr 2025',
      'May 2025',
      'Jun 2025',
      'Jul 2025',
      'Aug 2025',
      'Sep 2025',
      'Oct 2025',
      'Nov 2025',
      'Dec 2025',
      'Jan 2026',
      'Feb 2026',
    ]);
  });

  it('counts UTC days', () => {
    expect(dayOf(Date.parse('1970-01-02T00:00:00Z'))).toBe(1);
    expect(dayOf(Date.parse('1970-01-01T23:59:59.999Z'))).toBe(0);
  });
});

describe('student state', () => {
  it('averages Likert answers per category and ignores text and malformed values', () => {
    expect(
      summariseAnswers([
        { category: 'sleep', questionType: 'likert', value: '1' },
        { category: 'sleep', questionType: 'likert', value: '4' },
        { category: 'stress', questionType: 'likert', value: '3' },
        { category: 'support', questionType: 'likert', value: '2' },
        { category: 'support', questionType: 'likert', value: '3' },
        { category: 'general', questionType: 'text', value: '5' },
        { category: 'sleep', questionType: 'likert', value: 'abc' },
        { category: 'sleep', questionType: 'likert', value: '9' },
      ]),
    ).toEqual({ sleepMean: 2.5, stressMean: 3, supportAnswers: 2, supportPositive: 1 });
  });

  it('draws the sleep and stress lines where design.md does', () => {
    expect(latestContribution(latest({ sleepMean: 2, stressMean: 2 }))).toMatchObject({
      good_sleep: 1,
      poor_sleep: 0,
      low_stress: 1,
    });
    expect(latestContribution(latest({ sleepMean: 2.5, stressMean: 2.5 }))).toMatchObject({
      good_sleep: 0,
      poor_sleep: 0,
      moderate_stress: 1,
    });
    expect(latestContribution(latest({ sleepMean: 4, stressMean: 4 }))).toMatchObject({
      poor_sleep: 1,
      high_stress: 1,
      moderate_stress: 0,
    });
    expect(latestContribution(latest({ stressMean: 3.99 }))).toMatchObject({
      moderate_stress: 1,
      high_stress: 0,
    });
  });

  it('counts urgent and elevated as flagged, monitor and none as stable', () => {
    expect(latestContribution(latest({ tier: 'urgent' }))).toMatchObject({
      flagged_students: 1,
      stable_students: 0,
    });
    expect(latestContribution(latest({ tier: 'elevated' }))).toMatchObject({
      flagged_students: 1,
      stable_students: 0,
    });
    expect(latestContribution(latest({ tier: 'monitor' }))).toMatchObject({
      flagged_students: 0,
      stable_students: 1,
    });
    expect(latestContribution(null)).toMatchObject({ flagged_students: 0, stable_students: 0 });
    expect([
      flagPriority('urgent'),
      flagPriority('elevated'),
      flagPriority('monitor'),
      flagPriority(null),
    ]).toEqual([2, 1, 0, 0]);
  });

  it('moves a student from flagged to stable when a newer submission is not flagged', () => {
    const before = latest({ tier: 'urgent', sleepMean: 5 });
    const after = latest({ submissionId: 2, submittedAt: 2_000, tier: 'monitor', sleepMean: 1 });
    expect(isNewer(after, before)).toBe(true);
    expect(isNewer(before, after)).toBe(false);
    expect(latestDelta(before, after)).toEqual({
      flagged_students: -1,
      stable_students: 1,
      good_sleep: 1,
      poor_sleep: -1,
      low_stress: 0,
      moderate_stress: 0,
      high_stress: 0,
    });
  });

  it('breaks a tie in time by the later stored submission', () => {
    expect(isNewer(latest({ submissionId: 5 }), latest({ submissionId: 4 }))).toBe(true);
    expect(isNewer(latest({ submissionId: 3 }), latest({ submissionId: 4 }))).toBe(false);
  });
});
