import { z } from 'zod';
import {
  allItems,
  DECLINED,
  INSTRUMENT_IDS,
  INSTRUMENTS,
  type InstrumentId,
} from '../../../../common/instruments';
import type { Executor } from '../../../db/executor';
import { parseStoredJson } from '../../../db/stored-json';

/*
 * The export's instrument columns (design section 13): for each instrument the institution has
 * results for, its total, band and every item it can ask, by the item's published number.
 */

const StoredItemAnswers = z.record(z.string(), z.union([z.number(), z.literal(DECLINED)]));

/** "PHQ-9" from "Patient Health Questionnaire-9 (PHQ-9)". */
function shortName(instrumentId: InstrumentId): string {
  const name = INSTRUMENTS[instrumentId].name;
  return name.match(/\(([^)]+)\)$/)?.[1] ?? name;
}

interface InstrumentColumns {
  instrumentId: InstrumentId;
  itemIds: string[];
}

export interface InstrumentLayout {
  headers: string[];
  blocks: InstrumentColumns[];
}

/** The instruments answered at the institution, in the library's order, and their column headers. */
export async function instrumentLayout(db: Executor, institutionId: number): Promise<InstrumentLayout> {
  const rows = await db
    .selectFrom('instrument_results')
    .innerJoin('submissions', 'submissions.id', 'instrument_results.submission_id')
    .select('instrument_results.instrument_id')
    .distinct()
    .where('submissions.institution_id', '=', institutionId)
    .execute();
  const present = new Set(rows.map((row) => row.instrument_id));
  const blocks = INSTRUMENT_IDS.filter((id) => present.has(id)).map((instrumentId) => ({
    instrumentId,
    itemIds: allItems(INSTRUMENTS[instrumentId]).map((item) => item.id),
  }));
  const headers = blocks.flatMap(({ instrumentId }) => {
    const short = shortName(instrumentId);
    const items = allItems(INSTRUMENTS[instrumentId]).map((item) => `${short} item ${item.number}`);
    return [`${short} total`, `${short} band`, ...items];
  });
  return { headers, blocks };
}

/** Each submission's instrument cells, laid out as `layout` says; absent results stay blank. */
export async function instrumentCells(
  db: Executor,
  layout: InstrumentLayout,
  submissionIds: number[],
): Promise<Map<number, string[]>> {
  const cells = new Map<number, string[]>();
  if (layout.blocks.length === 0 || submissionIds.length === 0) return cells;
  const results = await db
    .selectFrom('instrument_results')
    .select(['submission_id', 'instrument_id', 'scored_as', 'item_answers', 'total', 'band'])
    .where('submission_id', 'in', submissionIds)
    .orderBy('id')
    .execute();
  const offsets = new Map<InstrumentId, number>();
  let offset = 0;
  for (const block of layout.blocks) {
    offsets.set(block.instrumentId, offset);
    offset += 2 + block.itemIds.length;
  }
  for (const result of results) {
    const start = offsets.get(result.instrument_id);
    const block = layout.blocks.find((entry) => entry.instrumentId === result.instrument_id);
    if (start === undefined || !block) continue;
    const row = cells.get(result.submission_id) ?? new Array<string>(layout.headers.length).fill('');
    row[start] = result.total === null ? '' : String(result.total);
    // A PHQ-2 that reached its cut point was scored as a PHQ-9: the band says so.
    const scoredAs =
      result.scored_as !== result.instrument_id ? ` (scored as ${shortName(result.scored_as)})` : '';
    row[start + 1] = `${result.band ?? ''}${scoredAs}`.trim();
    const answers = parseStoredJson(StoredItemAnswers, result.item_answers) ?? {};
    block.itemIds.forEach((itemId, index) => {
      const answer = answers[itemId];
      if (answer !== undefined) row[start + 2 + index] = String(answer);
    });
    cells.set(result.submission_id, row);
  }
  return cells;
}
