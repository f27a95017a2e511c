import { z } from 'zod';
import {
  allItems,
  DECLINED,
  INSTRUMENTS,
  type InstrumentId,
  SCREENING_DISCLAIMER,
  scoreChange,
} from '../../../common/instruments';
import { labelFor } from '../../../common/instruments/scoring';
import type { InstrumentItemAnswer, InstrumentScore } from '../../../common/schemas/cases';
import type { Executor } from '../../db/executor';
import { parseStoredJson } from '../../db/stored-json';

/*
 * The instrument results staff read with a student's submissions (design section 13): each total,
 * band, item answer and reason, and the change from the student's previous total of the same
 * instrument, always with the screening disclaimer.
 */

export const PREFER_NOT_TO_ANSWER = 'Prefer not to answer';

const StoredItemAnswers = z.record(z.string(), z.union([z.number(), z.literal(DECLINED)]));

/** The results of these submissions, in the order they were asked. */
export function instrumentResultsOf(db: Executor, submissionIds: readonly number[]) {
  if (submissionIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('instrument_results')
    .select([
      'submission_id',
      'instrument_id',
      'scored_as',
      'item_answers',
      'total',
      'band',
      'tier',
      'reason',
      'acute',
      'safety_assessment',
    ])
    .where('submission_id', 'in', submissionIds)
    .orderBy('id')
    .execute();
}

type ResultRow = Awaited<ReturnType<typeof instrumentResultsOf>>[number];

function itemsOf(instrumentId: InstrumentId, stored: string): InstrumentItemAnswer[] {
  const answers = parseStoredJson(StoredItemAnswers, stored) ?? {};
  const instrument = INSTRUMENTS[instrumentId];
  return allItems(instrument).flatMap((item) => {
    const answer = answers[item.id];
    if (answer === undefined) return [];
    const label = answer === DECLINED ? PREFER_NOT_TO_ANSWER : labelFor(instrument.scale, answer);
    return [{ item_id: item.id, number: item.number, text: item.text, answer, answer_label: label }];
  });
}

/**
 * Each submission's instrument scores, by submission id. `submissionIds` are the student's
 * submissions oldest first, so each total is compared with the one before it of the same kind.
 */
export async function instrumentScoresBySubmission(
  db: Executor,
  submissionIds: readonly number[],
): Promise<Map<number, InstrumentScore[]>> {
  const rows = await instrumentResultsOf(db, submissionIds);
  const order = new Map(submissionIds.map((id, index) => [id, index]));
  const sorted = [...rows].sort(
    (a, b) => (order.get(a.submission_id) ?? 0) - (order.get(b.submission_id) ?? 0),
  );
  const previousTotal = new Map<InstrumentId, number>();
  const scores = new Map<number, InstrumentScore[]>();
  for (const row of sorted) {
    const score = toScore(row, previousTotal.get(row.scored_as));
    if (row.total !== null) previousTotal.set(row.scored_as, row.total);
    const list = scores.get(row.submission_id) ?? [];
    list.push(score);
    scores.set(row.submission_id, list);
  }
  return scores;
}

function toScore(row: ResultRow, previous: number | undefined): InstrumentScore {
  const change =
    previous !== undefined && row.total !== null ? scoreChange(row.scored_as, previous, row.total) : null;
  return {
    instrument_id: row.instrument_id,
    scored_as: row.scored_as,
    name: INSTRUMENTS[row.scored_as].name,
    total: row.total,
    band: row.band,
    tier: row.tier,
    reason: row.reason,
    acute: Boolean(row.acute),
    safety_assessment: Boolean(row.safety_assessment),
    items: itemsOf(row.instrument_id, row.item_answers),
    change: change
      ? {
          previous: previous as number,
          change: change.change,
          clinically_significant: change.clinicallySignificant,
          description: change.description,
        }
      : null,
    disclaimer: SCREENING_DISCLAIMER,
  };
}
