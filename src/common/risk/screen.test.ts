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
      findings: [],
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
      expect(result.reasons).toEqual(["Answered 'Good' to the self-harm question"]);
    });

    it('say the answer in the words the student saw', () => {
      const result = screenSubmission({ answers: [{ ...likert('safety', 4), label: 'Often' }] });
      expect(result.findings).toEqual([
        { tier: 'urgent', rule: 'safety_answer', reason: "Answered 'Often' to the self-harm question" },
      ]);
    });

    it('report how many safety answers were of concern', () => {
      const result = screenSubmission({
        answers: [
          { ...likert('safety', 2), label: 'Rarely' },
          { ...likert('safety', 4), label: 'Often' },
          { ...likert('safety', 1), label: 'Never' },
        ],
      });
      expect(result.reasons).toEqual(["Answered 'Often' or 'Rarely' to 2 self-harm questions"]);
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
        'Answered Very Poor to 50 of 100 wellbeing questions',
        'Answered Very Poor to 50 of 50 sleep questions',
      ]);
    });

    it('is told as the answers chosen, worst first, never as a score of 5', () => {
      const answers = [
        likert('general', 5),
        likert('sleep', 5),
        likert('stress', 4),
        likert('support', 4),
        likert('support', 2),
      ];
      const result = screenSubmission({ answers });
      expect(result.findings[0]).toEqual({
        tier: 'elevated',
        rule: 'wellbeing_answers',
        reason: 'Answered Very Poor or Poor to 4 of 5 wellbeing questions',
      });
      for (const reason of result.reasons) expect(reason).not.toMatch(/of 5$|score|average/i);
    });

    it("uses a question's own labels where it has them", () => {
      const answers = [likert('general', 5), { ...likert('support', 4), label: 'Uncomfortable' }];
      expect(screenSubmission({ answers }).reasons[0]).toBe(
        'Answered Very Poor or Uncomfortable to 2 of 2 wellbeing questions',
      );
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
      expect(result.findings).toEqual([
        {
          tier: 'monitor',
          rule: 'category_answers',
          reason: 'Answered Poor to 100 of 100 sleep questions',
        },
      ]);
    });

    it('names the one question of a category', () => {
      const result = screenSubmission({ answers: [likert('sleep', 5), likert('stress', 1)] });
      expect(result.reasons).toEqual(['Answered Very Poor to the sleep question']);
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
      expect(result.findings).toEqual([
        {
          tier: 'monitor',
          rule: 'worsening',
          reason:
            'Wellbeing answers 1.0 closer to Very Poor than at the last check-in (average 3.3, was 2.3)',
        },
      ]);
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
      expect(result.findings).toEqual([
        { tier: 'urgent', rule: 'crisis_language', reason: 'Crisis language in a written answer' },
      ]);
    });

    it('are elevated with concerning language', () => {
      const result = screenSubmission({ answers: [written('I feel hopeless')] });
      expect(result.tier).toBe('elevated');
      expect(result.findings).toEqual([
        { tier: 'elevated', rule: 'concerning_language', reason: 'Concerning language in a written answer' },
      ]);
    });

    it('are no concern otherwise', () => {
      expect(screenSubmission({ answers: [written('This exam is killing me')] }).tier).toBe('none');
    });

    it('are screened in Spanish too', () => {
      expect(screenSubmission({ answers: [written('me quiero matar')] }).tier).toBe('urgent');
      expect(screenSubmission({ answers: [written('no quiero morir')] }).tier).toBe('elevated');
      expect(screenSubmission({ answers: [written('me siento sin esperanza')] }).tier).toBe('elevated');
      expect(screenSubmission({ answers: [written('me muero de risa')] }).tier).toBe('none');
    });
  });

  it('lists every rule that applied, most serious first', () => {
    const result = screenSubmission({
      answers: [likert('stress', 5), likert('sleep', 4), written('I feel hopeless'), likert('safety', 3)],
      previousLikertMean: 2,
    });
    expect(result.tier).toBe('urgent');
    expect(result.reasons).toEqual([
      "Answered 'Neutral' to the self-harm question",
      'Concerning language in a written answer',
      'Answered Very Poor or Poor to 2 of 2 wellbeing questions',
      'Answered Poor to the sleep question',
      'Answered Very Poor to the stress question',
      'Wellbeing answers 2.5 closer to Very Poor than at the last check-in (average 4.5, was 2.0)',
    ]);
    expect(result.findings.map((finding) => finding.tier)).toEqual([
      'urgent',
      'elevated',
      'elevated',
      'monitor',
      'monitor',
      'monitor',
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
    findings: [],
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
