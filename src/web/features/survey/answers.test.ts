import { beforeAll, describe, expect, it } from 'vitest';
import type { SurveyQuestion } from '../../../common/schemas/surveys';
import { i18n } from '../../app/i18n';
import { loginPathFor } from '../auth/loginPath';
import {
  answersFitting,
  answersForSubmit,
  draftFingerprint,
  hasAnswers,
  mergeAnswers,
  unansweredQuestionIds,
  withAnswer,
} from './answers';
import { LIKERT_CHOICES, likertChoices } from './likert';

const likert = (id: number): SurveyQuestion => ({
  id,
  text: `Question ${id}`,
  question_type: 'likert',
  category: 'general',
  answer_choices: null,
  order: id,
  language: 'en',
});
const text = (id: number): SurveyQuestion => ({ ...likert(id), question_type: 'text' });
const QUESTIONS = [likert(1), likert(2), text(3)];

describe('answers', () => {
  it('counts a question as answered only with a Likert value or non-blank text', () => {
    expect(unansweredQuestionIds(QUESTIONS, {})).toEqual([1, 2, 3]);
    expect(unansweredQuestionIds(QUESTIONS, { 1: '5', 2: '6', 3: '   ' })).toEqual([2, 3]);
    expect(unansweredQuestionIds(QUESTIONS, { 1: '1', 2: '3', 3: 'fine' })).toEqual([]);
  });

  it('drops an emptied text answer and knows when nothing is left', () => {
    const answers = withAnswer({ 1: '2' }, 3, 'hello');
    expect(answers).toEqual({ 1: '2', 3: 'hello' });
    expect(withAnswer(answers, 3, '')).toEqual({ 1: '2' });
    expect(hasAnswers({})).toBe(false);
    expect(hasAnswers({ 3: '  ' })).toBe(false);
    expect(hasAnswers({ 1: '4' })).toBe(true);
  });

  it('keeps only restored answers that still fit the survey', () => {
    const restored = { 1: '4', 2: 'seven', 3: 'x'.repeat(5001), 99: '3', constructor: '1' };
    expect(answersFitting(QUESTIONS, restored)).toEqual({ 1: '4' });
    expect(answersFitting(QUESTIONS, null)).toEqual({});
    expect(answersFitting(QUESTIONS, 'not an object')).toEqual({});
  });

  it('sends every question once, text trimmed', () => {
    expect(answersForSubmit(QUESTIONS, { 1: '1', 2: '5', 3: '  all good  ' })).toEqual({
      1: '1',
      2: '5',
      3: 'all good',
    });
  });

  it('fingerprints a draft independently of the order answers were given in', () => {
    const base = { template_id: 1, student_name: 'A', school_email: 'a@demo.edu' };
    expect(draftFingerprint({ ...base, answers: { 1: '2', 3: 'x' } })).toBe(
      draftFingerprint({ ...base, answers: { 3: 'x', 1: '2' } }),
    );
    expect(draftFingerprint({ ...base, answers: { 1: '2' } })).not.toBe(
      draftFingerprint({ ...base, answers: { 1: '3' } }),
    );
  });
});

describe('likert choices', () => {
  // The scale's labels are read in the page's language; a page always has one (main.tsx).
  beforeAll(() => i18n.loadAndActivate({ locale: 'en', messages: {} }));

  it('lists 5 Very Poor to 1 Excellent with fixed emoji', () => {
    expect(LIKERT_CHOICES.map(({ value, label }) => `${value} ${label}`)).toEqual([
      '5 Very Poor',
      '4 Poor',
      '3 Neutral',
      '2 Good',
      '1 Excellent',
    ]);
  });

  it('replaces only the labels a question customises, never the emoji', () => {
    const choices = likertChoices({ 1: 'Never', 5: 'Almost always', 3: '  ' });
    expect(choices.map(({ label }) => label)).toEqual(['Almost always', 'Poor', 'Neutral', 'Good', 'Never']);
    expect(choices.map(({ emoji }) => emoji)).toEqual(LIKERT_CHOICES.map(({ emoji }) => emoji));
  });

  it('gives a safety question no emojis, with its custom labels kept', () => {
    const choices = likertChoices({ 1: 'Never', 5: 'Almost always' }, 'safety');
    expect(choices.every(({ emoji }) => emoji === undefined)).toBe(true);
    expect(choices.map(({ label }) => label)).toEqual(['Almost always', 'Poor', 'Neutral', 'Good', 'Never']);
    expect(likertChoices(null, 'support').map(({ emoji }) => emoji)).toEqual(
      LIKERT_CHOICES.map(({ emoji }) => emoji),
    );
  });
});

describe('login path', () => {
  it('sends the current path as next, readable and encoded', () => {
    expect(loginPathFor('/survey/link/abc_DEF-1/')).toBe('/login/?next=/survey/link/abc_DEF-1/');
    expect(loginPathFor('/survey/?a=b&c')).toBe('/login/?next=/survey/%3Fa%3Db%26c');
  });
});

describe('mergeAnswers', () => {
  it("keeps the other window's answers and lays this window's changes over them", () => {
    const base = { '1': '3', '2': '4' };
    const mine = { '1': '2', '2': '4', '3': 'Written here' };
    const theirs = { '1': '3', '2': '5', '4': '1' };
    expect(mergeAnswers(base, mine, theirs)).toEqual({ '1': '2', '2': '5', '3': 'Written here', '4': '1' });
  });

  it('an answer removed here is removed; one removed there stays removed unless changed here', () => {
    expect(mergeAnswers({ '1': 'a', '2': 'b' }, { '2': 'b' }, { '1': 'a', '2': 'b' })).toEqual({ '2': 'b' });
    expect(mergeAnswers({ '1': 'a', '2': 'b' }, { '1': 'a', '2': 'b' }, { '2': 'b' })).toEqual({ '2': 'b' });
    expect(mergeAnswers({}, { '1': '4' }, { '1': '2' })).toEqual({ '1': '4' });
  });
});
