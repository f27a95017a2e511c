import { ASQ_ACUITY_ITEM, ASQ_SCREEN_ITEMS, ASQ_YES } from './asq';
import { type AnswerProblem, describeAnswerProblems, findAnswerProblems, itemsToAsk } from './conditional';
import { GAD2 } from './gad2';
import { GAD7 } from './gad7';
import { K10 } from './k10';
import { PHQ2 } from './phq2';
import { PHQ9, PHQ9_SELF_HARM_ITEM } from './phq9';
import { INSTRUMENTS } from './registry';
import { bandFor, sumItems } from './scoring';
import { DECLINED, type InstrumentAnswers, type InstrumentId, type ScoreBand } from './types';
import { WHO5, who5Percentage } from './who5';

export type AsqOutcome = 'negative' | 'nonAcutePositive' | 'acutePositive';

/**
 * A scored block. A PHQ-2 (GAD-2) sitting that reached its cut point is scored as the PHQ-9
 * (GAD-7) it became, with `screenedBy` saying how it started; one that did not stays a PHQ-2.
 */
export type InstrumentResult =
  | {
      readonly kind: 'phq9';
      readonly total: number;
      readonly band: ScoreBand;
      readonly selfHarmAnswer: number;
      readonly screenedBy: 'phq2' | null;
    }
  | { readonly kind: 'phq2'; readonly total: number }
  | {
      readonly kind: 'gad7';
      readonly total: number;
      readonly band: ScoreBand;
      readonly screenedBy: 'gad2' | null;
    }
  | { readonly kind: 'gad2'; readonly total: number }
  | {
      readonly kind: 'asq';
      readonly outcome: AsqOutcome;
      /** Question numbers (1-4) answered yes, and those declined. */
      readonly yesTo: readonly number[];
      readonly declined: readonly number[];
      /** Question 5's answer; null when it was not asked (negative screen). */
      readonly acuity: 'yes' | 'no' | 'declined' | null;
    }
  | { readonly kind: 'k10'; readonly total: number; readonly band: ScoreBand }
  | {
      readonly kind: 'who5';
      readonly total: number;
      readonly percentage: number;
      readonly band: ScoreBand | null;
    };

/** Thrown when answers are scored before `findAnswerProblems` is clear; callers validate first. */
export class IncompleteAnswersError extends Error {}

function requireBand(band: ScoreBand | null, instrument: string, total: number): ScoreBand {
  if (!band) throw new Error(`${instrument} total ${total} falls in no band`);
  return band;
}

function scorePhq9(answers: InstrumentAnswers, screenedBy: 'phq2' | null): InstrumentResult {
  const total = sumItems(PHQ9.items, answers);
  const selfHarmAnswer = answers[PHQ9_SELF_HARM_ITEM];
  if (typeof selfHarmAnswer !== 'number') throw new IncompleteAnswersError('PHQ-9 item 9 is unanswered');
  return {
    kind: 'phq9',
    total,
    band: requireBand(bandFor(PHQ9.bands, total), 'PHQ-9', total),
    selfHarmAnswer,
    screenedBy,
  };
}

function scoreGad7(answers: InstrumentAnswers, screenedBy: 'gad2' | null): InstrumentResult {
  const total = sumItems(GAD7.items, answers);
  return { kind: 'gad7', total, band: requireBand(bandFor(GAD7.bands, total), 'GAD-7', total), screenedBy };
}

function scoreAsq(answers: InstrumentAnswers): InstrumentResult {
  const yesTo = ASQ_SCREEN_ITEMS.filter((item) => answers[item.id] === ASQ_YES).map((item) => item.number);
  const declined = ASQ_SCREEN_ITEMS.filter((item) => answers[item.id] === DECLINED).map(
    (item) => item.number,
  );
  if (yesTo.length === 0 && declined.length === 0) {
    return { kind: 'asq', outcome: 'negative', yesTo, declined, acuity: null };
  }
  const acuityAnswer = answers[ASQ_ACUITY_ITEM.id];
  const acuity = acuityAnswer === DECLINED ? 'declined' : acuityAnswer === ASQ_YES ? 'yes' : 'no';
  return {
    kind: 'asq',
    outcome: acuity === 'yes' ? 'acutePositive' : 'nonAcutePositive',
    yesTo,
    declined,
    acuity,
  };
}

/** Scores answers that `findAnswerProblems` found complete. */
function scoreComplete(instrumentId: InstrumentId, answers: InstrumentAnswers): InstrumentResult {
  switch (instrumentId) {
    case 'phq9':
      return scorePhq9(answers, null);
    case 'phq2':
      return itemsToAsk(PHQ2, answers).length > PHQ2.items.length
        ? scorePhq9(answers, 'phq2')
        : { kind: 'phq2', total: sumItems(PHQ2.items, answers) };
    case 'gad7':
      return scoreGad7(answers, null);
    case 'gad2':
      return itemsToAsk(GAD2, answers).length > GAD2.items.length
        ? scoreGad7(answers, 'gad2')
        : { kind: 'gad2', total: sumItems(GAD2.items, answers) };
    case 'asq':
      return scoreAsq(answers);
    case 'k10': {
      const total = sumItems(K10.items, answers);
      return { kind: 'k10', total, band: requireBand(bandFor(K10.bands, total), 'K10', total) };
    }
    case 'who5': {
      const total = sumItems(WHO5.items, answers);
      return { kind: 'who5', total, percentage: who5Percentage(total), band: bandFor(WHO5.bands, total) };
    }
  }
}

/**
 * Scores one instrument block from complete answers (see `findAnswerProblems`). Pure: the same
 * answers always give the same result, on the survey screen's preview and on the server.
 */
export function scoreInstrument(instrumentId: InstrumentId, answers: InstrumentAnswers): InstrumentResult {
  const problems = findAnswerProblems(INSTRUMENTS[instrumentId], answers);
  if (problems.length > 0) throw new IncompleteAnswersError(describeAnswerProblems(problems));
  return scoreComplete(instrumentId, answers);
}

/**
 * The answers' result, or what stops them from being scored: for a caller that reports the
 * problems itself (a 400 naming each), checking the answers once rather than again to score.
 */
export function checkAndScore(
  instrumentId: InstrumentId,
  answers: InstrumentAnswers,
): { result: InstrumentResult; problems?: never } | { result?: never; problems: AnswerProblem[] } {
  const problems = findAnswerProblems(INSTRUMENTS[instrumentId], answers);
  return problems.length > 0 ? { problems } : { result: scoreComplete(instrumentId, answers) };
}
