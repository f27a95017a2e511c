import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { propertyRuns } from '../../../test/helpers/property-runs';
import { ASQ_NO, ASQ_YES } from './asq';
import { allItems, itemsToAsk } from './conditional';
import { INSTRUMENTS } from './registry';
import { IncompleteAnswersError, scoreInstrument } from './score';
import { answersAll, answersSumming } from './test-answers';
import { DECLINED, type InstrumentAnswers, type InstrumentId } from './types';

function scoreAt(id: InstrumentId, total: number) {
  const instrument = INSTRUMENTS[id];
  return scoreInstrument(id, answersSumming(instrument.items, instrument.scale, total));
}

describe('PHQ-9 scoring', () => {
  it.each([
    [0, 'minimal depression'],
    [4, 'minimal depression'],
    [5, 'mild depression'],
    [9, 'mild depression'],
    [10, 'moderate depression'],
    [14, 'moderate depression'],
    [15, 'moderately severe depression'],
    [19, 'moderately severe depression'],
    [20, 'severe depression'],
    [27, 'severe depression'],
  ])('puts a total of %i in the band "%s"', (total, label) => {
    const result = scoreAt('phq9', total);
    expect(result).toMatchObject({ kind: 'phq9', total, band: { label }, screenedBy: null });
  });

  it('reports item 9 on its own, whatever the total', () => {
    const answers = { ...answersAll(INSTRUMENTS.phq9.items, 0), phq9_9: 1 };
    expect(scoreInstrument('phq9', answers)).toMatchObject({ total: 1, selfHarmAnswer: 1 });
  });
});

describe('PHQ-2 scoring', () => {
  it('stays a PHQ-2 below 3', () => {
    expect(scoreInstrument('phq2', { phq9_1: 1, phq9_2: 1 })).toEqual({ kind: 'phq2', total: 2 });
    expect(scoreInstrument('phq2', { phq9_1: 0, phq9_2: 0 })).toEqual({ kind: 'phq2', total: 0 });
  });

  it('becomes a PHQ-9 at 3 and above, scored on all nine items', () => {
    const answers = { ...answersAll(INSTRUMENTS.phq9.items, 1), phq9_1: 2 };
    expect(scoreInstrument('phq2', answers)).toMatchObject({ kind: 'phq9', total: 10, screenedBy: 'phq2' });
  });

  it('refuses a PHQ-2 of 3 without the rest of the PHQ-9', () => {
    expect(() => scoreInstrument('phq2', { phq9_1: 3, phq9_2: 0 })).toThrow(IncompleteAnswersError);
  });
});

describe('GAD-7 scoring', () => {
  it.each([
    [0, 'minimal anxiety'],
    [4, 'minimal anxiety'],
    [5, 'mild anxiety'],
    [9, 'mild anxiety'],
    [10, 'moderate anxiety'],
    [14, 'moderate anxiety'],
    [15, 'severe anxiety'],
    [21, 'severe anxiety'],
  ])('puts a total of %i in the band "%s"', (total, label) => {
    expect(scoreAt('gad7', total)).toMatchObject({ kind: 'gad7', total, band: { label } });
  });
});

describe('GAD-2 scoring', () => {
  it('stays a GAD-2 below 3 and becomes a GAD-7 at 3', () => {
    expect(scoreInstrument('gad2', { gad7_1: 2, gad7_2: 0 })).toEqual({ kind: 'gad2', total: 2 });
    const answers = { ...answersAll(INSTRUMENTS.gad7.items, 0), gad7_1: 2, gad7_2: 1 };
    expect(scoreInstrument('gad2', answers)).toMatchObject({ kind: 'gad7', total: 3, screenedBy: 'gad2' });
  });
});

describe('K10 scoring', () => {
  it.each([
    [10, 'Likely to be well'],
    [19, 'Likely to be well'],
    [20, 'Likely to have a mild mental disorder'],
    [24, 'Likely to have a mild mental disorder'],
    [25, 'Likely to have a moderate mental disorder'],
    [29, 'Likely to have a moderate mental disorder'],
    [30, 'Likely to have a severe mental disorder'],
    [50, 'Likely to have a severe mental disorder'],
  ])('puts a total of %i in the band "%s"', (total, label) => {
    expect(scoreAt('k10', total)).toMatchObject({ kind: 'k10', total, band: { label } });
  });

  it('has no answer worth 0: "None of the time" scores 1', () => {
    expect(() => scoreInstrument('k10', answersAll(INSTRUMENTS.k10.items, 0))).toThrow(
      IncompleteAnswersError,
    );
  });
});

describe('WHO-5 scoring', () => {
  it.each([
    [0, 0, 'poor well-being'],
    [12, 48, 'poor well-being'],
    [13, 52, null],
    [25, 100, null],
  ])('scores raw %i as %i%% with band %s', (total, percentage, label) => {
    const result = scoreAt('who5', total);
    expect(result).toMatchObject({ kind: 'who5', total, percentage });
    expect(result.kind === 'who5' && result.band?.label).toBe(label ?? undefined);
  });
});

describe('ASQ scoring', () => {
  const allNo = answersAll(INSTRUMENTS.asq.items, ASQ_NO);

  it('is negative when questions 1-4 are all no', () => {
    expect(scoreInstrument('asq', allNo)).toEqual({
      kind: 'asq',
      outcome: 'negative',
      yesTo: [],
      declined: [],
      acuity: null,
    });
  });

  it('is a non-acute positive on any yes with question 5 no', () => {
    expect(scoreInstrument('asq', { ...allNo, asq_2: ASQ_YES, asq_5: ASQ_NO })).toMatchObject({
      outcome: 'nonAcutePositive',
      yesTo: [2],
      acuity: 'no',
    });
  });

  it('counts a refusal of questions 1-4 as a positive screen', () => {
    expect(scoreInstrument('asq', { ...allNo, asq_3: DECLINED, asq_5: ASQ_NO })).toMatchObject({
      outcome: 'nonAcutePositive',
      yesTo: [],
      declined: [3],
    });
  });

  it('is an acute positive when question 5 is yes', () => {
    expect(scoreInstrument('asq', { ...allNo, asq_1: ASQ_YES, asq_5: ASQ_YES })).toMatchObject({
      outcome: 'acutePositive',
      acuity: 'yes',
    });
  });

  it('stays positive, acuity unknown, when question 5 is declined', () => {
    expect(scoreInstrument('asq', { ...allNo, asq_4: ASQ_YES, asq_5: DECLINED })).toMatchObject({
      outcome: 'nonAcutePositive',
      acuity: 'declined',
    });
  });
});

describe('every scored total (property)', () => {
  const scored = ['phq9', 'gad7', 'k10', 'who5', 'phq2', 'gad2'] as const;

  /** Any complete answer set: first items drawn from the scale, then whatever they make required. */
  function completeAnswers(id: InstrumentId) {
    const instrument = INSTRUMENTS[id];
    const choice = fc.constantFrom(...instrument.scale.map((option) => option.value));
    return fc
      .record(Object.fromEntries(allItems(instrument).map((item) => [item.id, choice])))
      .map((drawn: Record<string, number>) => {
        const asked = itemsToAsk(instrument, drawn);
        return Object.fromEntries(asked.map((item) => [item.id, drawn[item.id]])) as InstrumentAnswers;
      });
  }

  it.each(scored)('%s: the total is the sum of the answers asked and stays in range', (id) => {
    fc.assert(
      fc.property(completeAnswers(id), (answers) => {
        const result = scoreInstrument(id, answers);
        if (result.kind === 'asq') throw new Error('not scored');
        const sum = Object.values(answers).reduce<number>((acc, value) => acc + Number(value), 0);
        expect(result.total).toBe(sum);
        const range = INSTRUMENTS[result.kind].total;
        expect(result.total).toBeGreaterThanOrEqual(range?.min ?? Number.NaN);
        expect(result.total).toBeLessThanOrEqual(range?.max ?? Number.NaN);
        if ('band' in result && result.kind !== 'who5') expect(result.band).not.toBeNull();
      }),
      { numRuns: propertyRuns(300) },
    );
  });

  it('ASQ: positive exactly when a question 1-4 is yes or declined', () => {
    const answer = fc.constantFrom<number | typeof DECLINED>(ASQ_YES, ASQ_NO, DECLINED);
    fc.assert(
      fc.property(fc.tuple(answer, answer, answer, answer), answer, (first, acuity) => {
        const answers: Record<string, number | typeof DECLINED> = {};
        first.forEach((value, index) => {
          answers[`asq_${index + 1}`] = value;
        });
        const positive = first.some((value) => value !== ASQ_NO);
        if (positive) answers.asq_5 = acuity;
        const result = scoreInstrument('asq', answers);
        expect(result.kind === 'asq' && result.outcome !== 'negative').toBe(positive);
      }),
      { numRuns: propertyRuns(200) },
    );
  });
});
