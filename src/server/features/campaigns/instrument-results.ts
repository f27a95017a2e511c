import { z } from 'zod/mini';
import {
  checkAndScore,
  INSTRUMENT_IDS,
  INSTRUMENTS,
  type InstrumentAnswers,
  type InstrumentId,
} from '../../../common/instruments';
import { ASQ_OUTCOMES } from '../../../common/instruments/asq';
import type { AnonymousResultsResponse } from '../../../common/schemas/campaigns';
import { cellsToHide, suppressed } from '../../../common/small-groups';
import type { Executor } from '../../db/executor';
import { parseStoredJson } from '../../db/stored-json';
import { NO_BAND } from '../dashboard';
import { totalAndBand } from '../surveys';

type InstrumentFigures = AnonymousResultsResponse['instruments'][number];

/** A PHQ-2 (GAD-2) that reached its cut point is scored as the PHQ-9 (GAD-7) it became. */
const SCORED_AS: Partial<Record<InstrumentId, readonly InstrumentId[]>> = {
  phq2: ['phq2', 'phq9'],
  gad2: ['gad2', 'gad7'],
};

/** Every band (or ASQ outcome) a result of `kind` can fall in, in the publisher's order. */
function bandsOf(kind: InstrumentId): string[] {
  if (kind === 'asq') return Object.values(ASQ_OUTCOMES);
  const named = INSTRUMENTS[kind].bands.map((band) => band.label);
  // Below the PHQ-2's or GAD-2's cut point, or a WHO-5 of 13 or more: no named band.
  return kind === 'phq2' || kind === 'gad2' || kind === 'who5' ? [...named, NO_BAND] : named;
}

const StoredItemAnswers = z.record(z.string(), z.union([z.number(), z.literal('declined')]));

const isInstrumentId = (id: string): id is InstrumentId => (INSTRUMENT_IDS as readonly string[]).includes(id);

interface BlockTally {
  instrumentId: InstrumentId;
  answers: number;
  /** `${scored as}\n${band}` -> answers */
  counts: Map<string, number>;
}

/**
 * How many answers of each instrument block of an anonymous campaign fell in each band, scored
 * by the library as any answer is. Every band the block can reach is listed, and the small-group
 * rule hides small ones for every role; a block's total is taken as known, as it is the number
 * answered (every block is required).
 */
export async function anonymousInstrumentBands(
  db: Executor,
  campaignId: number,
  threshold: number,
): Promise<InstrumentFigures[]> {
  const rows = await db
    .selectFrom('anonymous_answers as a')
    .innerJoin('anonymous_submissions as s', 's.id', 'a.submission_id')
    .select(['a.question_text', 'a.value'])
    .where('s.campaign_id', '=', campaignId)
    .where('a.question_type', '=', 'instrument')
    .orderBy('a.id')
    .execute();
  const blocks = new Map<string, BlockTally>();
  for (const row of rows) {
    if (!isInstrumentId(row.question_text)) continue;
    const answers: InstrumentAnswers | null = parseStoredJson(StoredItemAnswers, row.value);
    const scored = answers && checkAndScore(row.question_text, answers);
    if (!scored?.result) continue;
    // A template asks an instrument once: blocks of it (one removed, one added) count together.
    const key = row.question_text;
    const block = blocks.get(key) ?? { instrumentId: row.question_text, answers: 0, counts: new Map() };
    const cell = `${scored.result.kind}\n${totalAndBand(scored.result).band ?? NO_BAND}`;
    block.answers += 1;
    block.counts.set(cell, (block.counts.get(cell) ?? 0) + 1);
    blocks.set(key, block);
  }
  return [...blocks.values()].map((block) => figuresOf(block, threshold));
}

function figuresOf(block: BlockTally, threshold: number): InstrumentFigures {
  const cells = (SCORED_AS[block.instrumentId] ?? [block.instrumentId]).flatMap((kind) =>
    bandsOf(kind).map((band) => `${kind}\n${band}`),
  );
  for (const seen of block.counts.keys()) if (!cells.includes(seen)) cells.push(seen);
  const hidden = cellsToHide(
    {
      cells: {
        total: { students: Math.max(block.answers, threshold) },
        ...Object.fromEntries(cells.map((cell) => [cell, { students: block.counts.get(cell) ?? 0 }])),
      },
      lines: [{ total: 'total', parts: cells }],
    },
    threshold,
  );
  return {
    instrument_id: block.instrumentId,
    name: INSTRUMENTS[block.instrumentId].name,
    bands: cells.map((cell) => {
      const [kind, band] = cell.split('\n') as [InstrumentId, string];
      return {
        scored_as: kind,
        band,
        count: hidden.has(cell) ? suppressed(threshold) : (block.counts.get(cell) ?? 0),
      };
    }),
  };
}
