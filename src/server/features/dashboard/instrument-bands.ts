import { INSTRUMENT_IDS, INSTRUMENTS, type InstrumentId } from '../../../common/instruments';
import type { InstrumentBandMonths } from '../../../common/schemas/dashboard';
import type { Unsuppressed } from '../../../common/small-groups';
import type { Executor } from '../../db/executor';

/** A result with no named band (PHQ-2 or GAD-2 below its cut point, WHO-5 of 13 or more). */
export const NO_BAND = 'below cut point or no named band';

/** Every band's count of students, before small ones are suppressed. */
export type InstrumentBands = Unsuppressed<InstrumentBandMonths['instruments']>;

/**
 * How many students' results fell in each band, per instrument (as scored: a PHQ-2 that reached
 * its cut point counts as a PHQ-9) and calendar month (UTC). Proven submissions only, as every
 * other dashboard figure; a student counts once per band and month.
 */
export async function instrumentBandsByMonth(db: Executor, institutionId: number): Promise<InstrumentBands> {
  const rows = await db
    .selectFrom('instrument_results')
    .innerJoin('submissions', 'submissions.id', 'instrument_results.submission_id')
    .select([
      'instrument_results.scored_as',
      'instrument_results.band',
      'instrument_results.created_at',
      'submissions.respondent_id',
    ])
    .where('submissions.institution_id', '=', institutionId)
    .where('submissions.verified_at', 'is not', null)
    .execute();
  // instrument -> month -> band -> students
  const counts = new Map<InstrumentId, Map<string, Map<string, Set<number>>>>();
  for (const row of rows) {
    const month = new Date(Number(row.created_at)).toISOString().slice(0, 7);
    const byMonth = counts.get(row.scored_as) ?? new Map<string, Map<string, Set<number>>>();
    const byBand = byMonth.get(month) ?? new Map<string, Set<number>>();
    const students = byBand.get(row.band ?? NO_BAND) ?? new Set<number>();
    students.add(row.respondent_id);
    byBand.set(row.band ?? NO_BAND, students);
    byMonth.set(month, byBand);
    counts.set(row.scored_as, byMonth);
  }
  return INSTRUMENT_IDS.filter((id) => counts.has(id)).map((instrumentId) => {
    const byMonth = counts.get(instrumentId) ?? new Map();
    const bandOrder = [...INSTRUMENTS[instrumentId].bands.map((band) => band.label)];
    return {
      instrument_id: instrumentId,
      name: INSTRUMENTS[instrumentId].name,
      months: [...byMonth.keys()].sort().map((month) => ({
        month,
        bands: [...(byMonth.get(month) as Map<string, Set<number>>).entries()]
          .sort(([a], [b]) => rank(bandOrder, a) - rank(bandOrder, b) || a.localeCompare(b))
          .map(([band, students]) => ({ band, students: students.size })),
      })),
    };
  });
}

/** Published bands in the publisher's order, anything else after them. */
function rank(order: readonly string[], band: string): number {
  const index = order.indexOf(band);
  return index === -1 ? order.length : index;
}
