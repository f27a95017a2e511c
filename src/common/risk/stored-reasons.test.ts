import { describe, expect, it } from 'vitest';
import { readStoredReason } from './stored-reasons';

describe('readStoredReason', () => {
  it.each([
    [
      'Average wellbeing score 4.8 of 5',
      'Wellbeing answers averaged 4.8 (1 = Excellent … 5 = Very Poor; higher is worse)',
    ],
    [
      'Sleep questions average 4.5 of 5',
      'Sleep answers averaged 4.5 (1 = Excellent … 5 = Very Poor; higher is worse)',
    ],
    [
      'Safety question answered 4 of 5',
      'Answered 4 to the self-harm question (1 = the first choice, such as Never; higher is more often)',
    ],
    [
      '2 safety questions answered 2 or more, highest 4 of 5',
      'Answered above the first choice to 2 self-harm questions, highest 4 (1 = the first choice, such as Never; higher is more often)',
    ],
  ])('reads the earlier %j with its scale and direction', (stored, read) => {
    expect(readStoredReason(stored)).toBe(read);
  });

  it('keeps reasons that already read the right way round', () => {
    for (const reason of [
      "Answered 'Often' to the self-harm question",
      'Crisis language in a written answer',
      'Wellbeing worsened by 1.2 since the last check-in',
      'needs human review',
    ])
      expect(readStoredReason(reason)).toBe(reason);
  });
});
