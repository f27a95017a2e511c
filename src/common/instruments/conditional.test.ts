import { describe, expect, it } from 'vitest';
import { ASQ_NO, ASQ_YES } from './asq';
import { describeAnswerProblems, findAnswerProblems, itemsToAsk } from './conditional';
import { INSTRUMENTS } from './registry';
import { answersAll } from './test-answers';
import { DECLINED, type InstrumentAnswers } from './types';

const ids = (items: readonly { id: string }[]) => items.map((item) => item.id);
const codes = (problems: readonly { itemId: string; code: string }[]) =>
  problems.map((entry) => `${entry.itemId}:${entry.code}`);

describe('which items are asked', () => {
  it('asks only the PHQ-2 items while their total is below 3', () => {
    expect(ids(itemsToAsk(INSTRUMENTS.phq2, {}))).toEqual(['phq9_1', 'phq9_2']);
    expect(ids(itemsToAsk(INSTRUMENTS.phq2, { phq9_1: 1, phq9_2: 1 }))).toEqual(['phq9_1', 'phq9_2']);
    expect(ids(itemsToAsk(INSTRUMENTS.phq2, { phq9_1: 2 }))).toEqual(['phq9_1', 'phq9_2']);
  });

  it('adds PHQ-9 items 3-9 once the PHQ-2 reaches 3', () => {
    expect(ids(itemsToAsk(INSTRUMENTS.phq2, { phq9_1: 2, phq9_2: 1 }))).toEqual(ids(INSTRUMENTS.phq9.items));
    expect(ids(itemsToAsk(INSTRUMENTS.phq2, { phq9_1: 3 }))).toEqual(ids(INSTRUMENTS.phq9.items));
  });

  it('adds GAD-7 items 3-7 once the GAD-2 reaches 3, and not before', () => {
    expect(ids(itemsToAsk(INSTRUMENTS.gad2, { gad7_1: 1, gad7_2: 1 }))).toEqual(['gad7_1', 'gad7_2']);
    expect(ids(itemsToAsk(INSTRUMENTS.gad2, { gad7_1: 1, gad7_2: 2 }))).toEqual(ids(INSTRUMENTS.gad7.items));
  });

  it('asks ASQ question 5 only after a yes or a refusal', () => {
    const allNo = answersAll(INSTRUMENTS.asq.items, ASQ_NO);
    expect(ids(itemsToAsk(INSTRUMENTS.asq, allNo))).toEqual(['asq_1', 'asq_2', 'asq_3', 'asq_4']);
    expect(ids(itemsToAsk(INSTRUMENTS.asq, { ...allNo, asq_4: ASQ_YES }))).toContain('asq_5');
    expect(ids(itemsToAsk(INSTRUMENTS.asq, { asq_1: DECLINED }))).toContain('asq_5');
  });

  it('asks every item of the full forms whatever the answers', () => {
    for (const id of ['phq9', 'gad7', 'k10', 'who5'] as const) {
      expect(ids(itemsToAsk(INSTRUMENTS[id], {}))).toEqual(ids(INSTRUMENTS[id].items));
    }
  });
});

describe('what stops answers from being scored', () => {
  it('names each missing item, with its question number', () => {
    const problems = findAnswerProblems(INSTRUMENTS.gad7, {
      gad7_1: 0,
      gad7_2: 0,
      gad7_3: 0,
      gad7_4: 0,
      gad7_5: 0,
    });
    expect(codes(problems)).toEqual(['gad7_6:MISSING', 'gad7_7:MISSING']);
    expect(describeAnswerProblems(problems)).toBe(
      'Generalized Anxiety Disorder 7-item (GAD-7): question 6 needs an answer. Generalized Anxiety Disorder 7-item (GAD-7): question 7 needs an answer.',
    );
  });

  it('requires the rest of the PHQ-9 once the PHQ-2 reaches 3', () => {
    expect(codes(findAnswerProblems(INSTRUMENTS.phq2, { phq9_1: 2, phq9_2: 1 }))).toHaveLength(7);
    expect(findAnswerProblems(INSTRUMENTS.phq2, { phq9_1: 1, phq9_2: 1 })).toEqual([]);
  });

  it('requires ASQ question 5 after a yes or a refusal, and refuses it otherwise', () => {
    const allNo = answersAll(INSTRUMENTS.asq.items, ASQ_NO);
    expect(codes(findAnswerProblems(INSTRUMENTS.asq, { ...allNo, asq_2: DECLINED }))).toEqual([
      'asq_5:MISSING',
    ]);
    expect(codes(findAnswerProblems(INSTRUMENTS.asq, { ...allNo, asq_5: ASQ_NO }))).toEqual([
      'asq_5:NOT_ASKED',
    ]);
    expect(findAnswerProblems(INSTRUMENTS.asq, allNo)).toEqual([]);
  });

  it('accepts a refusal only where the item can be declined', () => {
    expect(
      findAnswerProblems(INSTRUMENTS.asq, {
        asq_1: DECLINED,
        asq_2: DECLINED,
        asq_3: DECLINED,
        asq_4: DECLINED,
        asq_5: DECLINED,
      }),
    ).toEqual([]);
    const phq9: InstrumentAnswers = { ...answersAll(INSTRUMENTS.phq9.items, 0), phq9_9: DECLINED };
    expect(codes(findAnswerProblems(INSTRUMENTS.phq9, phq9))).toEqual(['phq9_9:NOT_DECLINABLE']);
  });

  it('refuses answers off the scale and items the instrument does not have', () => {
    const k10 = { ...answersAll(INSTRUMENTS.k10.items, 3), k10_1: 0, k10_2: 2.5, k10_11: 3 };
    expect(codes(findAnswerProblems(INSTRUMENTS.k10, k10))).toEqual([
      'k10_1:NOT_A_CHOICE',
      'k10_2:NOT_A_CHOICE',
      'k10_11:UNKNOWN_ITEM',
    ]);
  });

  it('refuses a stale answer to an item no longer asked', () => {
    const answers = { ...answersAll(INSTRUMENTS.phq9.items, 0), phq9_1: 1 };
    expect(codes(findAnswerProblems(INSTRUMENTS.phq2, answers))).toEqual([
      'phq9_3:NOT_ASKED',
      'phq9_4:NOT_ASKED',
      'phq9_5:NOT_ASKED',
      'phq9_6:NOT_ASKED',
      'phq9_7:NOT_ASKED',
      'phq9_8:NOT_ASKED',
      'phq9_9:NOT_ASKED',
    ]);
  });
});
