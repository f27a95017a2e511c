/**
 * Small groups are never shown (design section 14): a figure over fewer than N distinct students
 * is hidden from anyone who may not already see the students by name, and enough other figures
 * are hidden with it that it cannot be worked back out from what is shown.
 *
 * This module is the one home of that rule. It knows nothing of dashboards: it is given counts of
 * students per cell and the sums that tie cells together (a row, a column, a total), and says
 * which cells to hide.
 */

/** Per institution, unless it sets another. */
export const DEFAULT_SMALL_GROUP_THRESHOLD = 5;
/** No institution may show groups smaller than this. */
export const MIN_SMALL_GROUP_THRESHOLD = 3;
/** A setting above this would hide everything a department has. */
export const MAX_SMALL_GROUP_THRESHOLD = 100;

/** A stored threshold as used: one below the floor (a manual edit) falls back to hiding more. */
export function smallGroupThresholdOf(stored: number | null | undefined): number {
  return typeof stored === 'number' && Number.isInteger(stored) && stored >= MIN_SMALL_GROUP_THRESHOLD
    ? stored
    : DEFAULT_SMALL_GROUP_THRESHOLD;
}

/** What stands in a hidden figure's place; never the figure itself. */
export interface Suppressed {
  suppressed: true;
  /** The threshold: the figure stands for fewer than this many students, or is hidden with one that does. */
  fewer_than: number;
}

/** A figure as shown to someone who may not see names: the number, or the marker in its place. */
export type Shown<T> = T | Suppressed;

export function isSuppressed(value: unknown): value is Suppressed {
  return typeof value === 'object' && value !== null && (value as Suppressed).suppressed === true;
}

export function suppressed(threshold: number): Suppressed {
  return { suppressed: true, fewer_than: threshold };
}

/** How a hidden figure reads on screen and in exports. */
export function fewerThanLabel(value: Suppressed): string {
  return `Fewer than ${value.fewer_than}`;
}

/** The sentence said where figures are hidden. */
export function smallGroupRule(threshold: number): string {
  return `To protect students’ privacy, groups of fewer than ${threshold} students are shown as “Fewer than ${threshold}”, with some other figures hidden so they cannot be worked out. Staff who may see names (admins and counsellors) see every figure.`;
}

/** One cell: how many distinct students it stands for. */
export interface Cell {
  students: number;
  /**
   * false: a figure that is never shown but ties others together (students who have not
   * answered: everyone minus those who have). It is hidden from the start and counts among a
   * line's hidden cells, but is not itself protected: it says nothing about anyone's wellbeing.
   */
  published?: boolean;
}

/** `total` is the sum of `parts`: a row or column and its total. */
export interface Line {
  total: string;
  parts: readonly string[];
}

export interface SmallGroupTable {
  cells: Readonly<Record<string, Cell>>;
  lines?: readonly Line[];
}

/**
 * Which cells to hide: every cell over fewer than `threshold` students, and then, line by line,
 * as few others as it takes that, in every line with a hidden shown-elsewhere figure,
 * - not exactly one cell is hidden (total minus the rest, or the sum of the parts, would give it);
 * - the hidden parts of a line whose total is shown, or can be worked out, add up to `threshold`
 *   or more (their sum can be worked out, and must not itself be a small group);
 * - no published cell over fewer than `threshold` students can be solved from all the lines together.
 * The cells hidden to protect others are the smallest shown ones, so the least is lost.
 */
export function cellsToHide(table: SmallGroupTable, threshold: number): Set<string> {
  const { cells } = table;
  const lines = table.lines ?? [];
  for (const line of lines) {
    for (const id of [line.total, ...line.parts]) {
      if (!(id in cells)) throw new Error(`The line refers to an unknown cell "${id}"`);
    }
  }
  const hidden = new Set(
    Object.entries(cells)
      .filter(([, cell]) => cell.published === false || cell.students < threshold)
      .map(([id]) => id),
  );
  const size = (id: string) => cells[id]?.students ?? 0;
  const published = (id: string) => cells[id]?.published !== false;
  // Each pass hides one more cell, so this ends once every cell is hidden at the latest.
  for (;;) {
    const solvable = new Set(solvableCells(lines, hidden));
    const known = (id: string) => !hidden.has(id) || solvable.has(id);
    const weak = lines.find((line) => lineNeedsMore(line, hidden, { size, published, known, threshold }));
    const line =
      weak ??
      lineOfSolvableCell(
        lines,
        hidden,
        [...solvable].filter((id) => published(id) && size(id) < threshold),
      );
    if (!line) return hidden;
    const next = smallestShown(line, hidden, size);
    if (next === undefined) return hidden;
    hidden.add(next);
  }
}

function lineNeedsMore(
  line: Line,
  hidden: ReadonlySet<string>,
  of: {
    size: (id: string) => number;
    published: (id: string) => boolean;
    /** Shown, or worked out from what is shown. */
    known: (id: string) => boolean;
    threshold: number;
  },
): boolean {
  const { size, threshold } = of;
  const members = [line.total, ...line.parts];
  const hiddenMembers = members.filter((id) => hidden.has(id));
  // A line whose only hidden cells are never shown anyway protects nobody by hiding more.
  if (!hiddenMembers.some(of.published) || hiddenMembers.length === members.length) return false;
  if (hiddenMembers.length === 1) return true;
  if (!of.known(line.total)) return false;
  const hiddenSum = line.parts.filter((id) => hidden.has(id)).reduce((sum, id) => sum + size(id), 0);
  return hiddenSum < threshold;
}

/** A shown member of the line to hide next: its smallest part, else its total. */
function smallestShown(line: Line, hidden: ReadonlySet<string>, size: (id: string) => number) {
  const shownParts = line.parts.filter((id) => !hidden.has(id)).sort((a, b) => size(a) - size(b));
  if (shownParts[0] !== undefined) return shownParts[0];
  return hidden.has(line.total) ? undefined : line.total;
}

/**
 * A line through a protected cell that the shown figures of every line together still pin down,
 * if any: the one where that cell has the fewest hidden companions.
 */
function lineOfSolvableCell(
  lines: readonly Line[],
  hidden: ReadonlySet<string>,
  solvableProtected: readonly string[],
): Line | undefined {
  for (const id of solvableProtected) {
    const through = lines
      .filter((line) => line.total === id || line.parts.includes(id))
      .filter((line) => [line.total, ...line.parts].some((member) => !hidden.has(member)));
    through.sort((a, b) => hiddenCount(a, hidden) - hiddenCount(b, hidden));
    if (through[0]) return through[0];
  }
  return undefined;
}

function hiddenCount(line: Line, hidden: ReadonlySet<string>): number {
  return [line.total, ...line.parts].filter((id) => hidden.has(id)).length;
}

/**
 * Hidden cells whose value follows from the shown ones. Each line is an equation
 * total - sum(parts) = 0; with the shown cells moved to the right, it binds the hidden ones. A
 * hidden cell is determined exactly when its unit vector lies in the span of those equations:
 * in reduced row echelon form, when its column has a pivot whose row has no other entry.
 */
export function solvableCells(lines: readonly Line[], hidden: ReadonlySet<string>): string[] {
  const unknowns = [...hidden];
  const column = new Map(unknowns.map((id, index) => [id, index]));
  const rows: number[][] = [];
  for (const line of lines) {
    const row: number[] = unknowns.map(() => 0);
    const add = (id: string, coefficient: number) => {
      const index = column.get(id);
      if (index !== undefined) row[index] = (row[index] ?? 0) + coefficient;
    };
    add(line.total, 1);
    for (const part of line.parts) add(part, -1);
    if (row.some((value) => value !== 0)) rows.push(row);
  }
  const pivots = reduceRows(rows, unknowns.length);
  return unknowns.filter((_, index) => {
    const rowIndex = pivots.get(index);
    if (rowIndex === undefined) return false;
    const row = rows[rowIndex] ?? [];
    return row.every((value, other) => other === index || Math.abs(value) < EPSILON);
  });
}

const EPSILON = 1e-9;

/** Gauss-Jordan elimination in place; the pivot row of each pivot column. */
function reduceRows(rows: number[][], width: number): Map<number, number> {
  const pivots = new Map<number, number>();
  let next = 0;
  for (let col = 0; col < width && next < rows.length; col++) {
    const found = rows.findIndex((row, index) => index >= next && Math.abs(row[col] ?? 0) > EPSILON);
    if (found === -1) continue;
    [rows[next], rows[found]] = [rows[found] as number[], rows[next] as number[]];
    const pivotRow = rows[next] as number[];
    const pivot = pivotRow[col] ?? 1;
    for (let k = 0; k < width; k++) pivotRow[k] = (pivotRow[k] ?? 0) / pivot;
    rows.forEach((row, index) => {
      const factor = row[col] ?? 0;
      if (index === next || Math.abs(factor) < EPSILON) return;
      for (let k = 0; k < width; k++) row[k] = (row[k] ?? 0) - factor * (pivotRow[k] ?? 0);
    });
    pivots.set(col, next);
    next++;
  }
  return pivots;
}

/** A shape with every `Suppressed` alternative taken out: the figures as computed, before hiding. */
export type Unsuppressed<T> = T extends Suppressed
  ? never
  : T extends readonly unknown[]
    ? { [K in keyof T]: Unsuppressed<T[K]> }
    : T extends object
      ? { [K in keyof T]: Unsuppressed<T[K]> }
      : T;
