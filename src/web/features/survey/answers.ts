// The modules themselves, not the library's index: the survey screen takes each instrument's
// form from the survey it shows, and must not bring the whole library along.
import { allItems, findAnswerProblems, itemsToAsk } from '../../../common/instruments/conditional';
import {
  DECLINED,
  type InstrumentAnswers,
  type InstrumentForm,
  type ItemAnswer,
} from '../../../common/instruments/types';
import type { Answers, AnswerValue, DraftContent, SurveyEntry } from '../../../common/schemas/surveys';
import { isLikertValue, isSurveyInstrument, TEXT_ANSWER_MAX_LENGTH } from '../../../common/schemas/values';

/**
 * What the student has entered so far, keyed by question id: text kept as typed, or for an
 * instrument block its item answers so far.
 */
export type AnswerMap = Readonly<Record<string, AnswerValue>>;

function isAnswered(question: SurveyEntry, value: AnswerValue | undefined): boolean {
  if (value === undefined) return false;
  if (isSurveyInstrument(question)) {
    return typeof value === 'object' && findAnswerProblems(question.instrument, value).length === 0;
  }
  if (typeof value !== 'string') return false;
  return question.question_type === 'likert' ? isLikertValue(value) : value.trim() !== '';
}

export function hasAnswers(answers: AnswerMap): boolean {
  return Object.values(answers).some((value) =>
    typeof value === 'string' ? value.trim() !== '' : Object.keys(value).length > 0,
  );
}

/** Ids of the questions still unanswered, in the order they appear. */
export function unansweredQuestionIds(questions: readonly SurveyEntry[], answers: AnswerMap): number[] {
  return questions.filter((question) => !isAnswered(question, answers[question.id])).map(({ id }) => id);
}

/** Sets or (for an emptied text answer) removes one answer. */
export function withAnswer(answers: AnswerMap, questionId: number, value: string): AnswerMap {
  const next = { ...answers };
  if (value === '') delete next[questionId];
  else next[questionId] = value;
  return next;
}

/** Only the answers to items still asked: an answer to an item that dropped out is cleared. */
function keepAsked(instrument: InstrumentForm, answers: InstrumentAnswers): InstrumentAnswers {
  const asked = new Set(itemsToAsk(instrument, answers).map((item) => item.id));
  return Object.fromEntries(Object.entries(answers).filter(([itemId]) => asked.has(itemId)));
}

/**
 * Sets one item of an instrument block. Its conditional items appear as soon as the cut point
 * is reached (the library's `itemsToAsk`), and their answers are cleared when it no longer is.
 */
export function withItemAnswer(
  answers: AnswerMap,
  questionId: number,
  instrument: InstrumentForm,
  itemId: string,
  value: ItemAnswer,
): AnswerMap {
  const current = answers[questionId];
  const items = typeof current === 'object' ? current : {};
  return { ...answers, [questionId]: keepAsked(instrument, { ...items, [itemId]: value }) };
}

/** An instrument block's stored answers, kept where each is an item of it with an allowed answer. */
function itemAnswersFitting(instrument: InstrumentForm, raw: unknown): InstrumentAnswers | null {
  if (typeof raw !== 'object' || raw === null) return null;
  const choices = new Set<unknown>(instrument.scale.map((option) => option.value));
  const kept: Record<string, ItemAnswer> = {};
  for (const item of allItems(instrument)) {
    const value = (raw as Record<string, unknown>)[item.id];
    if (choices.has(value) || (value === DECLINED && item.declinable)) kept[item.id] = value as ItemAnswer;
  }
  const asked = keepAsked(instrument, kept);
  return Object.keys(asked).length > 0 ? asked : null;
}

/**
 * Answers read back from a draft or session storage, kept only where they still fit the
 * survey: a question of this template, a Likert value 1 to 5, text within the length limit,
 * an instrument's items with answers of its scale.
 */
export function answersFitting(questions: readonly SurveyEntry[], raw: unknown): AnswerMap {
  if (typeof raw !== 'object' || raw === null) return {};
  const source = raw as Record<string, unknown>;
  const kept: Record<string, AnswerValue> = {};
  for (const question of questions) {
    const value = source[question.id];
    if (isSurveyInstrument(question)) {
      const items = itemAnswersFitting(question.instrument, value);
      if (items) kept[question.id] = items;
      continue;
    }
    if (typeof value !== 'string') continue;
    if (question.question_type === 'likert' ? isLikertValue(value) : value.length <= TEXT_ANSWER_MAX_LENGTH) {
      if (value !== '') kept[question.id] = value;
    }
  }
  return kept;
}

/** The answers as the server takes them: every question once, text trimmed. */
export function answersForSubmit(questions: readonly SurveyEntry[], answers: AnswerMap): Answers {
  const payload: Record<string, AnswerValue> = {};
  for (const question of questions) {
    const value = answers[question.id];
    if (isSurveyInstrument(question)) {
      payload[question.id] = typeof value === 'object' ? keepAsked(question.instrument, value) : {};
      continue;
    }
    const text = typeof value === 'string' ? value : '';
    payload[question.id] = question.question_type === 'text' ? text.trim() : text;
  }
  return payload;
}

const sameAnswer = (a: AnswerValue | undefined, b: AnswerValue | undefined) =>
  a === b || (typeof a === 'object' && typeof b === 'object' && JSON.stringify(a) === JSON.stringify(b));

/**
 * Two windows' answers brought together: `theirs` (the draft another window saved) with every
 * answer this window changed since `base` (the draft both started from) laid over it. A
 * question only one side touched keeps that side's answer; one both changed keeps this side's.
 */
export function mergeAnswers(base: AnswerMap, mine: AnswerMap, theirs: AnswerMap): AnswerMap {
  const merged: Record<string, AnswerValue> = { ...theirs };
  for (const id of new Set([...Object.keys(base), ...Object.keys(mine)])) {
    const value = mine[id];
    if (sameAnswer(value, base[id])) continue;
    if (value === undefined) delete merged[id];
    else merged[id] = value;
  }
  return merged;
}

/** A stable text form of a draft, so "nothing changed since the last save" is one comparison. */
export function draftFingerprint(draft: DraftContent): string {
  const answers = Object.keys(draft.answers)
    .sort()
    .map((key) => [key, draft.answers[key]]);
  return JSON.stringify([draft.template_id, draft.student_name, draft.school_email, answers]);
}
