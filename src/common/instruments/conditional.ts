import {
  type Condition,
  DECLINED,
  type InstrumentAnswers,
  type InstrumentForm,
  type InstrumentItem,
} from './types';

/*
 * The rule of which items are asked, on an instrument's form (types.ts) rather than its id: the
 * survey screen has only the forms of its own survey's instruments, the server the whole library.
 */

/** Every item an instrument can ask, in form order: first items, then the conditional ones. */
export function allItems(instrument: Pick<InstrumentForm, 'items' | 'conditionalItems'>) {
  return [...instrument.items, ...instrument.conditionalItems];
}

function conditionHolds(condition: Condition, items: readonly InstrumentItem[], answers: InstrumentAnswers) {
  if (condition.kind === 'anyAnswerIn') {
    return items.some((item) => {
      const answer = answers[item.id];
      return answer !== undefined && condition.values.includes(answer);
    });
  }
  let total = 0;
  for (const item of items) {
    const answer = answers[item.id];
    if (typeof answer === 'number') total += answer;
  }
  return total >= condition.atLeast;
}

/**
 * The items a respondent must be shown and answer, given the answers so far. The survey screen
 * calls it after every answer; the server calls it on submission, so both follow one rule.
 */
export function itemsToAsk(
  instrument: InstrumentForm,
  answers: InstrumentAnswers,
): readonly InstrumentItem[] {
  const condition = instrument.askConditionalItemsWhen;
  if (condition && conditionHolds(condition, instrument.items, answers)) return allItems(instrument);
  return instrument.items;
}

export const ANSWER_PROBLEM_CODES = [
  'MISSING',
  'NOT_A_CHOICE',
  'NOT_DECLINABLE',
  'NOT_ASKED',
  'UNKNOWN_ITEM',
] as const;
export type AnswerProblemCode = (typeof ANSWER_PROBLEM_CODES)[number];

export interface AnswerProblem {
  readonly itemId: string;
  readonly code: AnswerProblemCode;
  readonly message: string;
}

function problem(instrument: InstrumentForm, itemId: string, code: AnswerProblemCode): AnswerProblem {
  const item = allItems(instrument).find((candidate) => candidate.id === itemId);
  const question = item ? `question ${item.number}` : `"${itemId}"`;
  const messages: Record<AnswerProblemCode, string> = {
    MISSING: `${instrument.name}: ${question} needs an answer.`,
    NOT_A_CHOICE: `${instrument.name}: the answer to ${question} is not one of its choices.`,
    NOT_DECLINABLE: `${instrument.name}: ${question} cannot be declined.`,
    NOT_ASKED: `${instrument.name}: ${question} was not asked, given the earlier answers.`,
    UNKNOWN_ITEM: `${instrument.name}: ${question} is not one of its questions.`,
  };
  return { itemId, code, message: messages[code] };
}

/** What checking an answer looks up, per instrument: built once, not for every submission. */
interface AnswerRules {
  readonly allIds: ReadonlySet<string>;
  /** The ids asked when the conditional items are not, and when they are. */
  readonly firstIds: ReadonlySet<string>;
  readonly choices: ReadonlySet<number>;
}

const answerRules = new WeakMap<InstrumentForm, AnswerRules>();

function answerRulesOf(instrument: InstrumentForm): AnswerRules {
  let rules = answerRules.get(instrument);
  if (!rules) {
    rules = {
      allIds: new Set(allItems(instrument).map((item) => item.id)),
      firstIds: new Set(instrument.items.map((item) => item.id)),
      choices: new Set(instrument.scale.map((option) => option.value)),
    };
    answerRules.set(instrument, rules);
  }
  return rules;
}

/**
 * What stops a set of answers from being scored: required items left out, answers off the
 * scale, refusals of items that cannot be declined, and answers to items that were not asked
 * (a stale answer from before an earlier one changed would otherwise be scored). Empty means
 * the answers are complete and can be scored.
 */
export function findAnswerProblems(instrument: InstrumentForm, answers: InstrumentAnswers): AnswerProblem[] {
  const asked = itemsToAsk(instrument, answers);
  const { allIds, firstIds, choices } = answerRulesOf(instrument);
  const askedIds = asked === instrument.items ? firstIds : allIds;
  const problems: AnswerProblem[] = [];

  for (const item of asked) {
    const answer = answers[item.id];
    if (answer === undefined) problems.push(problem(instrument, item.id, 'MISSING'));
    else if (answer === DECLINED) {
      if (!item.declinable) problems.push(problem(instrument, item.id, 'NOT_DECLINABLE'));
    } else if (!choices.has(answer)) problems.push(problem(instrument, item.id, 'NOT_A_CHOICE'));
  }
  for (const itemId of Object.keys(answers)) {
    if (!allIds.has(itemId)) problems.push(problem(instrument, itemId, 'UNKNOWN_ITEM'));
    else if (!askedIds.has(itemId)) problems.push(problem(instrument, itemId, 'NOT_ASKED'));
  }
  return problems;
}

/** One sentence for a 4xx reply that lists every problem, so the respondent can fix them at once. */
export function describeAnswerProblems(problems: readonly AnswerProblem[]): string {
  return problems.map((entry) => entry.message).join(' ');
}
