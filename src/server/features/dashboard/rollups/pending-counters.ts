import type { Executor } from '../../../db/executor';
import type { BeforeCommit } from '../../../db/transaction-runner';
import * as queries from './queries';

type MonthIncrements = Partial<queries.MonthCounters>;
type TotalsIncrements = Partial<queries.TotalsCounters>;

/** Adds each increment to the sum of its column (a column not seen yet starts at 0). */
function addInto(
  sums: Record<string, number | undefined>,
  increments: Record<string, number | undefined>,
): void {
  for (const [column, value] of Object.entries(increments)) sums[column] = (sums[column] ?? 0) + (value ?? 0);
}

/**
 * The dashboard counter increments of a transaction, summed in memory and written just before
 * it commits (see `countersBeforeCommit`). Every submission adds to its institution's month,
 * day-bucket and totals rows, which every submission of the institution contends for; a group of
 * submissions committed together (group commit) then updates each of those rows once instead
 * of once per submission. Nothing outside the transaction can tell: readers see the counters
 * only after the commit, by which time they are written.
 */
export class PendingCounters {
  readonly #months = new Map<string, { institutionId: number; month: number; increments: MonthIncrements }>();
  readonly #latestDays = new Map<string, { institutionId: number; day: number; students: number }>();
  readonly #totals = new Map<number, TotalsIncrements>();

  addToMonth(institutionId: number, month: number, increments: MonthIncrements): void {
    const key = `${institutionId}:${month}`;
    let row = this.#months.get(key);
    if (!row) {
      row = { institutionId, month, increments: {} };
      this.#months.set(key, row);
    }
    addInto(row.increments, increments);
  }

  /** Moves students between the per-day buckets of latest submissions (the response rate's). */
  addToLatestDay(institutionId: number, day: number, students: number): void {
    const key = `${institutionId}:${day}`;
    let row = this.#latestDays.get(key);
    if (!row) {
      row = { institutionId, day, students: 0 };
      this.#latestDays.set(key, row);
    }
    row.students += students;
  }

  addToTotals(institutionId: number, increments: TotalsIncrements): void {
    let sums = this.#totals.get(institutionId);
    if (!sums) {
      sums = {};
      this.#totals.set(institutionId, sums);
    }
    addInto(sums, increments);
  }

  /** Takes over another set's increments: a unit of work that succeeded joins its group's. */
  absorb(other: PendingCounters): void {
    for (const row of other.#months.values()) this.addToMonth(row.institutionId, row.month, row.increments);
    for (const row of other.#latestDays.values())
      this.addToLatestDay(row.institutionId, row.day, row.students);
    for (const [institutionId, increments] of other.#totals) this.addToTotals(institutionId, increments);
    other.#months.clear();
    other.#latestDays.clear();
    other.#totals.clear();
  }

  /**
   * Writes each row once and forgets the increments. Months in ascending order, then day
   * buckets, then totals: concurrent PostgreSQL transactions lock the rows in the same order and
   * cannot deadlock.
   */
  async write(trx: Executor): Promise<void> {
    const months = [...this.#months.values()].sort(
      (a, b) => a.institutionId - b.institutionId || a.month - b.month,
    );
    // A student moved out of a day and back into it by the same group leaves it unchanged.
    const latestDays = [...this.#latestDays.values()]
      .filter((row) => row.students !== 0)
      .sort((a, b) => a.institutionId - b.institutionId || a.day - b.day);
    const totals = [...this.#totals].sort(([a], [b]) => a - b);
    this.#months.clear();
    this.#latestDays.clear();
    this.#totals.clear();
    for (const row of months) await queries.addToMonth(trx, row.institutionId, row.month, row.increments);
    for (const row of latestDays) await queries.addToLatestDay(trx, row.institutionId, row.day, row.students);
    for (const [institutionId, increments] of totals)
      await queries.addToTotals(trx, institutionId, increments);
  }
}

/**
 * The counters as a before-commit hook: each unit of work adds to its own, the transaction writes
 * their sum. Written after every other hook, so the rows every submission of an institution
 * shares are locked only for the moment before the commit, never while other work runs.
 */
export const countersBeforeCommit: BeforeCommit<PendingCounters> = {
  writtenLast: true,
  start: () => new PendingCounters(),
  merge: (into, from) => into.absorb(from),
  write: (trx, counters) => counters.write(trx),
};
