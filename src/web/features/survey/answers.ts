import {
  type Answers,
  type DraftContent,
  type SurveyQuestion,
  TEXT_ANSWER_MAX_LENGTH,
} from '../../../common/schemas/surveys';
import { isLikertValue } from '../../../common/schemas/templates';

/** What the student has entered so far, keyed by question id. Text is kept as typed. */
export type AnswerMap = Readonly<Record<string, string>>;

function isAnswered(question: SurveyQuestion, value: string | undefined): boolean {
  if (value === undefined) return false;
  return question.question_type === 'likert' ? isLikertValue(value) : value.trim() !== '';
}

export function hasAnswers(answers: AnswerMap): boolean {
  return Object.values(answers).some((value) => value.trim() !== '');
}

/** Ids of the questions still unanswered, in the order they appear. */
export function unansweredQuestionIds(questions: readonly SurveyQuestion[], answers: AnswerMap): number[] {
  return questions.filter((question) => !isAnswered(question, answers[question.id])).map(({ id }) => id);
}

/** Sets or (for an emptied text answer) removes one answer. */
export function withAnswer(answers: AnswerMap, questionId: number, value: string): AnswerMap {
  const next = { ...answers };
  if (value === '') delete next[questionId];
  else next[questionId] = value;
  return next;
}

/**
 * Answers read back from a draft or session storage, kept only where they still fit the
 * survey: a question of this template, a Likert value 1 to 5, text within the length limit.
 */
export function answersFitting(questions: readonly SurveyQuestion[], raw: unknown): AnswerMap {
  if (typeof raw !== 'object' || raw === null) return {};
  const source = raw as Record<string, unknown>;
  const kept: Record<string, string> = {};
  for (const question of questions) {
    const value = source[question.id];
    if (typeof value !== 'string') continue;
    if (question.question_type === 'likert' ? isLikertValue(value) : value.length <= TEXT_ANSWER_MAX_LENGTH) {
      if (value !== '') kept[question.id] = value;
    }
  }
  return kept;
}

/** The answers as the server takes them: every question once, text trimmed. */
export function answersForSubmit(questions: readonly SurveyQuestion[], answers: AnswerMap): Answers {
  const payload: Record<string, string> = {};
  for (const question of questions) {
    const value = answers[question.id] ?? '';
    payload[question.id] = question.question_type === 'text' ? value.trim() : value;
  }
  return payload;
}

/**
 * Two windows' answers brought together: `theirs` (the draft another window saved) with every
 * answer this window changed since `base` (the draft both started from) laid over it. A
 * question only one side touched keeps that side's answer; one both changed keeps this side's.
 */
export function mergeAnswers(base: AnswerMap, mine: AnswerMap, theirs: AnswerMap): AnswerMap {
  const merged: Record<string, string> = { ...theirs };
  for (const id of new Set([...Object.keys(base), ...Object.keys(mine)])) {
    const value = mine[id];
    if (value === base[id]) continue;
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
