import {
  type CombinedFollowUp,
  combinedFollowUp,
  describeAnswerProblems,
  findAnswerProblems,
  followUpFor,
  INSTRUMENTS,
  type InstrumentAnswers,
  type InstrumentId,
  type InstrumentResult,
  scoreInstrument,
} from '../../../common/instruments';
import { ASQ_OUTCOMES } from '../../../common/instruments/asq';
import type { RiskResult } from '../../../common/risk';
import { highestTier, RISK_TIERS } from '../../../common/risk/tiers';
import type { AnswerValue } from '../../../common/schemas/surveys';
import type { Executor } from '../../db/executor';
import { reusableQuery } from '../../db/reusable-query';
import type { InstrumentResultsTable } from '../../db/types';
import { AppError } from '../../lib/errors';

/*
 * An instrument block's part of a submission (design section 13): its answers are checked by the
 * instrument library's own rule (the same the survey screen follows), scored, and their follow-up
 * combined with the free-text and Likert screening, which each can raise, never lower, the tier.
 */

/** Added to the reasons when any result asks for it, so the case says what to do first. */
export const SAFETY_ASSESSMENT_REASON = 'A brief safety assessment is asked for';

export interface ScoredBlock {
  questionId: number;
  instrumentId: InstrumentId;
  answers: InstrumentAnswers;
  result: InstrumentResult;
}

/** An instrument block's answers, complete and on its scale, or a 400 naming every problem. */
export function checkInstrumentAnswers(
  block: { id: number; instrumentId: InstrumentId },
  value: AnswerValue | undefined,
): ScoredBlock {
  const instrument = INSTRUMENTS[block.instrumentId];
  if (typeof value !== 'object' || value === null) {
    throw new AppError('BAD_REQUEST', `${instrument.name}: answer its questions.`);
  }
  const problems = findAnswerProblems(instrument, value);
  if (problems.length > 0) throw new AppError('BAD_REQUEST', describeAnswerProblems(problems));
  return {
    questionId: block.id,
    instrumentId: block.instrumentId,
    answers: value,
    result: scoreInstrument(block.instrumentId, value),
  };
}

/** The total and the publisher's band (or the ASQ's outcome) as stored and shown to staff. */
export function totalAndBand(result: InstrumentResult): { total: number | null; band: string | null } {
  switch (result.kind) {
    case 'asq':
      return { total: null, band: ASQ_OUTCOMES[result.outcome] };
    case 'phq2':
    case 'gad2':
      return { total: result.total, band: null };
    case 'who5':
      return { total: result.total, band: result.band?.label ?? null };
    default:
      return { total: result.total, band: result.band.label };
  }
}

/**
 * The submission's tier and reasons with its instruments counted: the highest of both, the more
 * serious side's reasons first, and the safety assessment named when any result asks for one.
 */
export function withInstrumentFollowUp<T extends Pick<RiskResult, 'tier' | 'reasons'>>(
  screened: T,
  blocks: readonly ScoredBlock[],
): T & { instruments: CombinedFollowUp | null } {
  if (blocks.length === 0) return { ...screened, instruments: null };
  const instruments = combinedFollowUp(blocks.map((block) => block.result));
  const instrumentsFirst = RISK_TIERS.indexOf(instruments.tier) > RISK_TIERS.indexOf(screened.tier);
  const reasons = instrumentsFirst
    ? [...instruments.reasons, ...screened.reasons]
    : [...screened.reasons, ...instruments.reasons];
  if (instruments.safetyAssessment) reasons.unshift(SAFETY_ASSESSMENT_REASON);
  return {
    ...screened,
    tier: highestTier([screened.tier, instruments.tier]),
    reasons,
    instruments,
  };
}

/** Compiled once per number of blocks: it runs with every submission that asks an instrument. */
const insertResultsQuery = reusableQuery((db, rows: Omit<InstrumentResultsTable, 'id'>[]) =>
  db.insertInto('instrument_results').values(rows),
);

/** Stores each scored block with the submission, in its transaction. */
export async function insertInstrumentResults(
  trx: Executor,
  submissionId: number,
  blocks: readonly ScoredBlock[],
  createdAt: number,
) {
  if (blocks.length === 0) return;
  await insertResultsQuery(
    trx,
    blocks.map((block) => {
      const followUp = followUpFor(block.result);
      return {
        submission_id: submissionId,
        question_id: block.questionId,
        instrument_id: block.instrumentId,
        scored_as: block.result.kind,
        item_answers: JSON.stringify(block.answers),
        ...totalAndBand(block.result),
        tier: followUp.tier,
        reason: followUp.reason,
        acute: followUp.acute ? 1 : 0,
        safety_assessment: followUp.safetyAssessment ? 1 : 0,
        created_at: createdAt,
      };
    }),
  );
}
