import { describe, expect, it } from 'vitest';
import { ASQ_NO, ASQ_YES } from './asq';
import { scoreChange } from './change';
import { combinedFollowUp, followUpFor } from './follow-up';
import { INSTRUMENTS } from './registry';
import { scoreInstrument } from './score';
import { answersAll, answersSumming } from './test-answers';
import { DECLINED, type InstrumentAnswers } from './types';

/** A PHQ-9 with the given total carried by items 1-8 and item 9 set apart. */
function phq9(total: number, item9 = 0) {
  const firstEight = INSTRUMENTS.phq9.items.slice(0, 8);
  const answers = { ...answersSumming(firstEight, INSTRUMENTS.phq9.scale, total - item9), phq9_9: item9 };
  return followUpFor(scoreInstrument('phq9', answers));
}

function total(id: 'gad7' | 'k10' | 'who5', value: number) {
  const instrument = INSTRUMENTS[id];
  return followUpFor(scoreInstrument(id, answersSumming(instrument.items, instrument.scale, value)));
}

function asq(answers: InstrumentAnswers) {
  return followUpFor(scoreInstrument('asq', { ...answersAll(INSTRUMENTS.asq.items, ASQ_NO), ...answers }));
}

describe('the follow-up each result asks for', () => {
  it.each([
    [0, 'none'],
    [4, 'none'],
    [5, 'monitor'],
    [9, 'monitor'],
    [10, 'elevated'],
    [24, 'elevated'],
  ])('PHQ-9 total %i with item 9 at 0: %s', (value, tier) => {
    expect(phq9(value)).toMatchObject({ tier, acute: false, safetyAssessment: false });
  });

  it('PHQ-9 item 9 above "Not at all" is urgent with a safety assessment, whatever the total', () => {
    expect(phq9(1, 1)).toEqual({
      tier: 'urgent',
      acute: false,
      safetyAssessment: true,
      reason: "PHQ-9 total 1 (minimal depression); item 9 answered 'Several days'",
    });
    expect(phq9(15, 1).reason).toBe(
      "PHQ-9 total 15 (moderately severe depression); item 9 answered 'Several days'",
    );
    expect(phq9(27, 3)).toMatchObject({ tier: 'urgent', safetyAssessment: true });
  });

  it.each([
    [4, 'none'],
    [5, 'monitor'],
    [9, 'monitor'],
    [10, 'elevated'],
    [21, 'elevated'],
  ])('GAD-7 total %i: %s', (value, tier) => {
    expect(total('gad7', value).tier).toBe(tier);
  });

  it.each([
    [10, 'none'],
    [19, 'none'],
    [20, 'monitor'],
    [29, 'monitor'],
    [30, 'elevated'],
    [50, 'elevated'],
  ])('K10 total %i: %s', (value, tier) => {
    expect(total('k10', value).tier).toBe(tier);
  });

  it.each([
    [0, 'monitor'],
    [12, 'monitor'],
    [13, 'none'],
    [25, 'none'],
  ])('WHO-5 raw %i: %s', (value, tier) => {
    expect(total('who5', value).tier).toBe(tier);
  });

  it('says the WHO-5 score in raw and percentage terms', () => {
    expect(total('who5', 12).reason).toBe('WHO-5 raw score 12, 48% (poor well-being)');
    expect(total('who5', 13).reason).toBe('WHO-5 raw score 13, 52%');
  });

  it('ASQ: negative is none; any yes or refusal with question 5 no is urgent with a safety assessment', () => {
    expect(asq({})).toMatchObject({ tier: 'none', acute: false, reason: 'ASQ negative screen' });
    expect(asq({ asq_1: ASQ_YES, asq_3: ASQ_YES, asq_5: ASQ_NO })).toEqual({
      tier: 'urgent',
      acute: false,
      safetyAssessment: true,
      reason:
        "ASQ non-acute positive screen (potential risk identified): 'Yes' to questions 1, 3; question 5 answered 'No'",
    });
    expect(asq({ asq_2: DECLINED, asq_5: ASQ_NO })).toMatchObject({
      tier: 'urgent',
      safetyAssessment: true,
      reason:
        "ASQ non-acute positive screen (potential risk identified): declined to answer question 2; question 5 answered 'No'",
    });
  });

  it('ASQ question 5 yes is urgent and acute', () => {
    expect(asq({ asq_4: ASQ_YES, asq_5: ASQ_YES })).toEqual({
      tier: 'urgent',
      acute: true,
      safetyAssessment: true,
      reason:
        "ASQ acute positive screen (imminent risk identified): 'Yes' to question 4; question 5 answered 'Yes'",
    });
  });

  it('ASQ question 5 declined stays urgent and says acuity is not known', () => {
    expect(asq({ asq_1: ASQ_YES, asq_5: DECLINED })).toMatchObject({
      tier: 'urgent',
      acute: false,
      safetyAssessment: true,
    });
    expect(asq({ asq_1: ASQ_YES, asq_5: DECLINED }).reason).toContain('acuity is not known');
  });

  it('a PHQ-2 or GAD-2 below its cut point asks for nothing', () => {
    expect(followUpFor(scoreInstrument('phq2', { phq9_1: 1, phq9_2: 1 })).tier).toBe('none');
    expect(followUpFor(scoreInstrument('gad2', { gad7_1: 2, gad7_2: 0 })).tier).toBe('none');
  });
});

describe('a submission with several instruments', () => {
  it('takes the highest tier and lists the reasons that raised it, most serious first', () => {
    const results = [
      scoreInstrument('k10', answersSumming(INSTRUMENTS.k10.items, INSTRUMENTS.k10.scale, 22)),
      scoreInstrument('gad7', answersSumming(INSTRUMENTS.gad7.items, INSTRUMENTS.gad7.scale, 12)),
      scoreInstrument('who5', answersAll(INSTRUMENTS.who5.items, 4)),
    ];
    expect(combinedFollowUp(results)).toEqual({
      tier: 'elevated',
      acute: false,
      safetyAssessment: false,
      reasons: ['GAD-7 total 12 (moderate anxiety)', 'K10 total 22 (Likely to have a mild mental disorder)'],
    });
    expect(combinedFollowUp([])).toEqual({
      tier: 'none',
      acute: false,
      safetyAssessment: false,
      reasons: [],
    });
  });
});

describe('change from a previous score', () => {
  it('calls a PHQ-9 change of 5 or more clinically significant, either way', () => {
    expect(scoreChange('phq9', 8, 13)).toEqual({
      change: 5,
      clinicallySignificant: true,
      description: 'PHQ-9 rose by 5, from 8 to 13: a clinically significant change',
    });
    expect(scoreChange('phq9', 14, 9).clinicallySignificant).toBe(true);
    expect(scoreChange('phq9', 8, 12)).toEqual({
      change: 4,
      clinicallySignificant: false,
      description: 'PHQ-9 rose by 4, from 8 to 12',
    });
    expect(scoreChange('phq9', 7, 7).description).toBe('PHQ-9 unchanged at 7');
  });

  it('makes no significance claim where none is defined', () => {
    expect(scoreChange('gad7', 3, 12)).toEqual({
      change: 9,
      clinicallySignificant: null,
      description: 'GAD-7 rose by 9, from 3 to 12',
    });
  });
});
