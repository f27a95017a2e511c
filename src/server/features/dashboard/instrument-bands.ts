import { INSTRUMENT_IDS, INSTRUMENTS, type InstrumentId } from '../../../common/instruments';
import type { InstrumentBandMonths } from '../../../common/schemas/dashboard';
import type { Unsuppressed } from '../../../common/small-groups';
import type { Executor } from '../../db/executor';

/** A result with no named band (PHQ-2 or GAD-2 below its cut point, WHO-5 of 13 or more). */
export const NO_BAND = 'below cut point or no named band';

/** Every band's count of students, before small ones are suppressed. */
export type InstrumentBands = Unsuppressed<InstrumentBandMonths['instruments']>;
type MonthFigures = InstrumentBands[number]['months'][number];

/** One instrument's results in one month: who fell in which band, and each student's totals. */
interface MonthTally {
  bands: Map<string, Set<number>>;
  totals: Map<number, number[]>;
}

/**
 * How many students' results fell in each band, per instrument (as scored: a PHQ-2 that reached
 * its cut point counts as a PHQ-9) and calendar month (UTC), with the mean total and its change
 * from the month before. Proven submissions only, as every other dashboard figure; a student
 * counts once per band and month, and once in the month's mean.
 */
export async function instrumentBandsByMonth(db: Executor, institutionId: number): Promise<InstrumentBands> {
  const rows = await db
    .selectFrom('instrument_results')
    .innerJoin('submissions', 'submissions.id', 'instrument_results.submission_id')
    .select([
      'instrument_results.scored_as',
      'instrument_results.band',
      'instrument_results.total',
      'instrument_results.created_at',
      'submissions.respondent_id',
    ])
    .where('submissions.institution_id', '=', institutionId)
    .where('submissions.verified_at', 'is not', null)
    .execute();
  // instrument -> month -> tally
  const tallies = new Map<InstrumentId, Map<string, MonthTally>>();
  for (const row of rows) {
    const month = new Date(Number(row.created_at)).toISOString().slice(0, 7);
    const byMonth = tallies.get(row.scored_as) ?? new Map<string, MonthTally>();
    const tally = byMonth.get(month) ?? { bands: new Map(), totals: new Map() };
    const band = row.band ?? NO_BAND;
    const students = tally.bands.get(band) ?? new Set<number>();
    students.add(row.respondent_id);
    tally.bands.set(band, students);
    if (row.total !== null) {
      const totals = tally.totals.get(row.respondent_id) ?? [];
      totals.push(Number(row.total));
      tally.totals.set(row.respondent_id, totals);
    }
    byMonth.set(month, tally);
    tallies.set(row.scored_as, byMonth);
  }
  return INSTRUMENT_IDS.filter((id) => tallies.has(id)).map((instrumentId) => {
    const byMonth = tallies.get(instrumentId) ?? new Map<string, MonthTally>();
    const bandOrder = INSTRUMENTS[instrumentId].bands.map((band) => band.label);
    const months: MonthFigures[] = [];
    for (const month of [...byMonth.keys()].sort()) {
      const tally = byMonth.get(month) as MonthTally;
      const meanTotal = meanOfStudents(tally.totals);
      const previous = months.at(-1);
      months.push({
        month,
        bands: [...tally.bands.entries()]
          .sort(([a], [b]) => rank(bandOrder, a) - rank(bandOrder, b) || a.localeCompare(b))
          .map(([band, students]) => ({ band, students: students.size })),
        students: new Set([...tally.bands.values()].flatMap((students) => [...students])).size,
        mean_total: meanTotal,
        mean_change:
          previous && previous.mean_total !== null && meanTotal !== null
            ? { from_month: previous.month, change: oneDecimal(meanTotal - previous.mean_total) }
            : null,
      });
    }
    return { instrument_id: instrumentId, name: INSTRUMENTS[instrumentId].name, months };
  });
}

/** The mean over students of each student's own mean, so one who answered twice counts once. */
function meanOfStudents(totals: Map<number, number[]>): number | null {
  if (totals.size === 0) return null;
  const perStudent = [...totals.values()].map(
    (own) => own.reduce((sum, value) => sum + value, 0) / own.length,
  );
  return oneDecimal(perStudent.reduce((sum, value) => sum + value, 0) / perStudent.length);
}

function oneDecimal(value: number): number {
  return Math.round(value * 10) / 10;
}

/** Published bands in the publisher's order, anything else after them. */
function rank(order: readonly string[], band: string): number {
  const index = order.indexOf(band);
  return index === -1 ? order.length : index;
}
