import {
  type CombinedFollowUp,
  checkAndScore,
  combineFollowUps,
  describeAnswerProblems,
  type FollowUp,
  followUpFor,
  INSTRUMENTS,
  type InstrumentAnswers,
  type InstrumentId,
  type InstrumentResult,
} from '../../../common/instruments';
import { ASQ_OUTCOMES } from '../../../common/instruments/asq';
import type { RiskResult } from '../../../common/risk';
import { highestTier, RISK_TIERS } from '../../../common/risk/tiers';
import type { AnswerValue } from '../../../common/schemas/surveys';
import { reusableQuery } from '../../db/reusable-query';
import type { BeforeCommit, CommitHooks } from '../../db/transaction-runner';
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
  /** What the result asks of staff: stored with it and combined into the submission's tier. */
  followUp: FollowUp;
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
  const { result, problems } = checkAndScore(block.instrumentId, value);
  if (problems) throw new AppError('BAD_REQUEST', describeAnswerProblems(problems));
  return {
    questionId: block.id,
    instrumentId: block.instrumentId,
    answers: value,
    result,
    followUp: followUpFor(result),
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
  const instruments = combineFollowUps(blocks.map((block) => block.followUp));
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

type InstrumentResultRow = Omit<InstrumentResultsTable, 'id'>;

/** Compiled once per number of rows: a group's results go in a few statements (see below). */
const insertResultsQuery = reusableQuery((db, rows: InstrumentResultRow[]) =>
  db.insertInto('instrument_results').values(rows),
);

/**
 * The row counts a group's results are inserted in, largest first: any number of rows is a sum
 * of these, so the insert is compiled and prepared for these seven shapes only, in one statement
 * per 64 rows and at most six more. One statement of exactly the group's rows compiled and
 * prepared a new one for almost every group size, all through a run: measured on SQLite over 300
 * groups of 1 to 50 submissions with two results each, this writes them for 40-47 microseconds of
 * CPU a submission where that took 46-60. 64 rows stay well under both databases' limit on a
 * statement's values (13 columns a row).
 */
const ROWS_PER_INSERT = [64, 32, 16, 8, 4, 2, 1] as const;

/**
 * The instrument results of a transaction's submissions, written together just before it
 * commits: a group of submissions committed at once (group commit) stores all its results in
 * one statement instead of one per submission. Nothing reads them before the commit; a
 * submission whose unit of work fails leaves its results out with the rest of its work.
 */
const resultsBeforeCommit: BeforeCommit<InstrumentResultRow[]> = {
  start: () => [],
  merge(into, from) {
    for (const row of from) into.push(row);
  },
  async write(trx, rows) {
    let start = 0;
    for (const count of ROWS_PER_INSERT) {
      for (; rows.length - start >= count; start += count)
        await insertResultsQuery(trx, rows.slice(start, start + count));
    }
  },
};

/** Stores each scored block with the submission, in its transaction (written with its commit). */
export function storeInstrumentResults(
  hooks: CommitHooks,
  submissionId: number,
  blocks: readonly ScoredBlock[],
  createdAt: number,
): void {
  if (blocks.length === 0) return;
  const rows = hooks.beforeCommit(resultsBeforeCommit);
  for (const block of blocks) {
    const { followUp } = block;
    rows.push({
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
    });
  }
}
