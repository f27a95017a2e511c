import { describe, expect, it } from 'vitest';
import { instrumentForm } from '../../../common/instruments';
import type { SurveyInstrumentBlock } from '../../../common/schemas/surveys';
import {
  type AnswerMap,
  answersFitting,
  answersForSubmit,
  unansweredQuestionIds,
  withItemAnswer,
} from './answers';

const PHQ2: SurveyInstrumentBlock = {
  id: 7,
  kind: 'instrument',
  instrument_id: 'phq2',
  instrument: instrumentForm('phq2'),
  order: 1,
  language: 'en',
};
const ASQ: SurveyInstrumentBlock = {
  id: 8,
  kind: 'instrument',
  instrument_id: 'asq',
  instrument: instrumentForm('asq'),
  order: 2,
  language: 'en',
};

describe('instrument answers on the survey screen', () => {
  it('asks the rest of the PHQ-9 once the PHQ-2 reaches 3, and clears those answers when it drops below', () => {
    let answers: AnswerMap = {};
    answers = withItemAnswer(answers, 7, PHQ2.instrument, 'phq9_1', 2);
    answers = withItemAnswer(answers, 7, PHQ2.instrument, 'phq9_2', 1);
    expect(unansweredQuestionIds([PHQ2], answers)).toEqual([7]);
    answers = withItemAnswer(answers, 7, PHQ2.instrument, 'phq9_3', 2);
    expect(answers[7]).toEqual({ phq9_1: 2, phq9_2: 1, phq9_3: 2 });
    answers = withItemAnswer(answers, 7, PHQ2.instrument, 'phq9_1', 0);
    expect(answers[7]).toEqual({ phq9_1: 0, phq9_2: 1 });
    expect(unansweredQuestionIds([PHQ2], answers)).toEqual([]);
    expect(answersForSubmit([PHQ2], answers)).toEqual({ 7: { phq9_1: 0, phq9_2: 1 } });
  });

  it('asks ASQ question 5 after a refusal, and keeps only answers a draft may hold', () => {
    const answers = withItemAnswer({}, 8, ASQ.instrument, 'asq_1', 'declined');
    expect(unansweredQuestionIds([ASQ], answers)).toEqual([8]);
    const restored = answersFitting([PHQ2, ASQ], {
      7: { phq9_1: 'declined', phq9_2: 9, phq9_3: 1 },
      8: { asq_1: 'declined', asq_5: 1, unknown: 1 },
    });
    expect(restored).toEqual({ 8: { asq_1: 'declined', asq_5: 1 } });
  });
});
