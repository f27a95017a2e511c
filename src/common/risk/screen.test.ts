import { describe, expect, it } from 'vitest';
import type { QuestionCategory } from '../schemas/templates';
import { NEEDS_HUMAN_REVIEW, type ScreenedAnswer, screenSubmission, screenSubmissionSafely } from './screen';

const likert = (category: QuestionCategory, value: number | string): ScreenedAnswer => ({
  questionType: 'likert',
  category,
  value: String(value),
});
const written = (value: string): ScreenedAnswer => ({ questionType: 'text', category: 'general', value });

/** `count` answers in one category whose mean is exactly `total / count`, e.g. 399 / 100 = 3.99. */
function answersTotalling(category: QuestionCategory, total: number, count: number): ScreenedAnswer[] {
  const base = Math.floor(total / count);
  const raised = total - base * count;
  return Array.from({ length: count }, (_, index) => likert(category, index < raised ? base + 1 : base));
}

describe('screenSubmission', () => {
  it('finds nothing in an empty submission', () => {
    expect(screenSubmission({ answers: [] })).toEqual({
      tier: 'none',
      reasons: [],
      likertMean: null,
      categoryMeans: {},
    });
  });

  it('treats "Neutral" answers as no risk', () => {
    const answers = (['general', 'sleep', 'stress', 'support'] as const).map((category) =>
      likert(category, 3),
    );
    expect(screenSubmission({ answers }).tier).toBe('none');
  });

  describe('safety answers', () => {
    it('are not a concern at 1', () => {
      expect(screenSubmission({ answers: [likert('safety', 1), likert('general', 1)] }).tier).toBe('none');
    });

    it('are urgent from 2', () => {
      const result = screenSubmission({ answers: [likert('safety', 2), likert('general', 1)] });
      expect(result.tier).toBe('urgent');
      expect(result.reasons).toEqual(['Safety question answered 2 of 5']);
    });

    it('report how many safety answers were of concern', () => {
      const result = screenSubmission({
        answers: [likert('safety', 4), likert('safety', 2), likert('safety', 1)],
      });
      expect(result.reasons).toEqual(['2 safety questions answered 2 or more, highest 4 of 5']);
    });

    it('stay out of the wellbeing mean but keep their own category mean', () => {
      const result = screenSubmission({ answers: [likert('safety', 5), likert('general', 1)] });
      expect(result.likertMean).toBe(1);
      expect(result.categoryMeans).toEqual({ general: 1, safety: 5 });
    });
  });

  describe('the wellbeing mean', () => {
    it('is not a concern at 3.99', () => {
      const answers = [...answersTotalling('general', 399, 100), ...answersTotalling('sleep', 399, 100)];
      const result = screenSubmission({ answers });
      expect(result.likertMean).toBeCloseTo(3.99, 10);
      expect(result.tier).toBe('none');
    });

    it('is elevated at 4.0', () => {
      const answers = [...answersTotalling('general', 150, 50), ...answersTotalling('sleep', 250, 50)];
      const result = screenSubmission({ answers });
      expect(result.likertMean).toBe(4);
      expect(result.tier).toBe('elevated');
      expect(result.reasons).toEqual([
        'Average wellbeing score 4.0 of 5',
        'Sleep questions average 5.0 of 5',
      ]);
    });
  });

  describe('a category mean', () => {
    it('is not a concern at 3.99', () => {
      const answers = [...answersTotalling('sleep', 399, 100), likert('stress', 1)];
      const result = screenSubmission({ answers });
      expect(result.categoryMeans.sleep).toBeCloseTo(3.99, 10);
      expect(result.tier).toBe('none');
    });

    it('is monitored at 4.0', () => {
      const answers = [...answersTotalling('sleep', 400, 100), likert('stress', 1), likert('support', 2)];
      const result = screenSubmission({ answers });
      expect(result.categoryMeans).toEqual({ sleep: 4, stress: 1, support: 2 });
      expect(result.likertMean).toBeLessThan(4);
      expect(result.tier).toBe('monitor');
      expect(result.reasons).toEqual(['Sleep questions average 4.0 of 5']);
    });
  });

  describe('worsening since the previous submission', () => {
    // Ten answers averaging 3.3: 3.3 - 2.3 is just under 1 in floating point.
    const answersAveraging3point3 = answersTotalling('general', 33, 10);

    it('is not a concern at 0.99', () => {
      expect(screenSubmission({ answers: answersAveraging3point3, previousLikertMean: 2.31 }).tier).toBe(
        'none',
      );
    });

    it('is monitored at 1.0', () => {
      const result = screenSubmission({ answers: answersAveraging3point3, previousLikertMean: 2.3 });
      expect(result.tier).toBe('monitor');
      expect(result.reasons).toEqual(['Wellbeing worsened by 1.0 since the last check-in']);
    });

    it('does not count an improvement', () => {
      expect(screenSubmission({ answers: [likert('general', 1)], previousLikertMean: 3.5 }).tier).toBe(
        'none',
      );
    });

    it('needs a previous submission', () => {
      const answers = answersAveraging3point3;
      expect(screenSubmission({ answers }).tier).toBe('none');
      expect(screenSubmission({ answers, previousLikertMean: null }).tier).toBe('none');
    });

    it('needs wellbeing answers this time', () => {
      expect(screenSubmission({ answers: [likert('safety', 1)], previousLikertMean: 1 }).tier).toBe('none');
    });
  });

  describe('written answers', () => {
    it('are left out of the means', () => {
      const result = screenSubmission({ answers: [likert('general', 2), written('5'), written('5')] });
      expect(result.likertMean).toBe(2);
      expect(result.categoryMeans).toEqual({ general: 2 });
    });

    it('are urgent with crisis language', () => {
      const result = screenSubmission({ answers: [likert('general', 1), written('I want to end my life')] });
      expect(result.tier).toBe('urgent');
      expect(result.reasons).toEqual(['Crisis language in a written answer']);
    });

    it('are elevated with concerning language', () => {
      const result = screenSubmission({ answers: [written('I feel hopeless')] });
      expect(result.tier).toBe('elevated');
      expect(result.reasons).toEqual(['Concerning language in a written answer']);
    });

    it('are no concern otherwise', () => {
      expect(screenSubmission({ answers: [written('This exam is killing me')] }).tier).toBe('none');
    });
  });

  it('lists every rule that applied, most serious first', () => {
    const result = screenSubmission({
      answers: [likert('stress', 5), likert('sleep', 4), written('I feel hopeless'), likert('safety', 3)],
      previousLikertMean: 2,
    });
    expect(result.tier).toBe('urgent');
    expect(result.reasons).toEqual([
      'Safety question answered 3 of 5',
      'Concerning language in a written answer',
      'Average wellbeing score 4.5 of 5',
      'Sleep questions average 4.0 of 5',
      'Stress questions average 5.0 of 5',
      'Wellbeing worsened by 2.5 since the last check-in',
    ]);
  });

  it('words its reasons neutrally', () => {
    const result = screenSubmission({
      answers: [likert('safety', 5), likert('general', 5), written('I want to die'), written('hopeless')],
      previousLikertMean: 1,
    });
    expect(result.reasons.length).toBeGreaterThan(0);
    for (const reason of result.reasons) expect(reason).not.toMatch(/flag/i);
  });

  it.each([
    ['a Likert value out of range', [likert('general', 6)]],
    ['a Likert value that is not a whole number', [likert('general', '2.5')]],
    ['an empty Likert value', [likert('general', '')]],
    ['an unknown category', [likert('wellbeing' as QuestionCategory, 3)]],
    ['an unknown question type', [{ questionType: 'rating', category: 'general', value: '3' } as never]],
  ])('refuses %s instead of skipping it', (_case, answers) => {
    expect(() => screenSubmission({ answers })).toThrow();
  });

  it('refuses a previous mean that cannot be a Likert mean', () => {
    expect(() => screenSubmission({ answers: [], previousLikertMean: Number.NaN })).toThrow(RangeError);
  });
});

describe('screenSubmissionSafely', () => {
  const needsReview = {
    tier: 'elevated',
    reasons: [NEEDS_HUMAN_REVIEW],
    likertMean: null,
    categoryMeans: {},
  };

  it('returns the normal result when screening works', () => {
    const input = { answers: [likert('safety', 2)] };
    expect(screenSubmissionSafely(input)).toEqual(screenSubmission(input));
  });

  it('asks for human review when screening throws', () => {
    const failingScreen = () => {
      throw new Error('lexicon unavailable');
    };
    expect(screenSubmissionSafely({ answers: [likert('general', 1)] }, failingScreen)).toEqual(needsReview);
  });

  it('asks for human review when the answers are malformed', () => {
    expect(screenSubmissionSafely({ answers: [likert('general', 'five')] })).toEqual(needsReview);
    expect(screenSubmissionSafely({ answers: null as never })).toEqual(needsReview);
  });
});
