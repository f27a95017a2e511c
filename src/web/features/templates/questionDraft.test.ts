import { describe, expect, it } from 'vitest';
import { QUESTION_ORDER_MAX, QUESTION_TEXT_MAX_LENGTH } from '../../../common/schemas/templates';
import {
  checkQuestionDraft,
  EMPTY_QUESTION_DRAFT,
  ORDER_INVALID,
  QUESTION_TEXT_REQUIRED,
  type QuestionDraft,
} from './questionDraft';

const draft = (change: Partial<QuestionDraft>): QuestionDraft => ({
  ...EMPTY_QUESTION_DRAFT,
  text: 'How rested do you feel?',
  ...change,
});

describe('a new question draft', () => {
  it('becomes the request the server reads: text trimmed, order a number, no choices when none were written', () => {
    expect(checkQuestionDraft(draft({ text: '  How rested do you feel?  ', order: ' 2 ' }))).toEqual({
      request: {
        question_text: 'How rested do you feel?',
        question_type: 'likert',
        question_category: 'general',
        order: 2,
      },
      errors: {},
    });
  });

  it('sends only the custom answers written, trimmed', () => {
    const choices = { ...EMPTY_QUESTION_DRAFT.choices, '1': 'Fully rested', '3': '  So-so  ', '5': '   ' };
    const { request } = checkQuestionDraft(draft({ category: 'sleep', choices }));
    expect(request).toMatchObject({
      question_category: 'sleep',
      answer_choices: { '1': 'Fully rested', '3': 'So-so' },
    });
    expect(Object.keys(request?.answer_choices ?? {})).toEqual(['1', '3']);
  });

  it('sends no custom answers for a text question, whatever was typed before the type changed', () => {
    const choices = { ...EMPTY_QUESTION_DRAFT.choices, '1': 'Fully rested' };
    const { request } = checkQuestionDraft(draft({ type: 'text', choices }));
    expect(request).toEqual({
      question_text: 'How rested do you feel?',
      question_type: 'text',
      question_category: 'general',
      order: 1,
    });
  });

  it.each(['', '   ', '\n\t'])('needs its text (%j): said in the form’s words', (text) => {
    expect(checkQuestionDraft(draft({ text }))).toEqual({
      request: null,
      errors: { text: QUESTION_TEXT_REQUIRED },
    });
  });

  it.each(['0', '-3', '', '1.5', 'two', '1e2'])('needs a whole order of at least 1 (%j)', (order) => {
    expect(checkQuestionDraft(draft({ order }))).toEqual({ request: null, errors: { order: ORDER_INVALID } });
  });

  it('reports both mistakes at once', () => {
    expect(checkQuestionDraft(draft({ text: ' ', order: '0' })).errors).toEqual({
      text: QUESTION_TEXT_REQUIRED,
      order: ORDER_INVALID,
    });
  });

  it('says a limit of the contract in the contract’s words', () => {
    expect(checkQuestionDraft(draft({ order: String(QUESTION_ORDER_MAX + 1) })).errors).toEqual({
      order: `Order must be at most ${QUESTION_ORDER_MAX}`,
    });
    expect(checkQuestionDraft(draft({ text: 'x'.repeat(QUESTION_TEXT_MAX_LENGTH + 1) })).errors).toEqual({
      text: `Question text must be at most ${QUESTION_TEXT_MAX_LENGTH} characters`,
    });
    expect(checkQuestionDraft(draft({ order: String(QUESTION_ORDER_MAX) })).request?.order).toBe(
      QUESTION_ORDER_MAX,
    );
  });

  it('starts as the spec’s blank form: likert, general, order 1, no custom answers', () => {
    expect(EMPTY_QUESTION_DRAFT).toEqual({
      text: '',
      type: 'likert',
      category: 'general',
      order: '1',
      choices: { '1': '', '2': '', '3': '', '4': '', '5': '' },
    });
  });
});
