import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { propertyRuns } from '../../test/helpers/property-runs';
import { type Cell, cellsToHide, type Line, type SmallGroupTable } from './small-groups';

/** A table of students by row and column, with its row, column and grand totals as cells too. */
function crossTable(counts: number[][]): SmallGroupTable {
  const cells: Record<string, Cell> = {};
  const lines: Line[] = [];
  const columns = counts[0]?.length ?? 0;
  counts.forEach((row, r) => {
    row.forEach((students, c) => {
      cells[`${r},${c}`] = { students };
    });
    cells[`row${r}`] = { students: row.reduce((a, b) => a + b, 0) };
    lines.push({ total: `row${r}`, parts: row.map((_, c) => `${r},${c}`) });
  });
  for (let c = 0; c < columns; c++) {
    cells[`col${c}`] = { students: counts.reduce((sum, row) => sum + (row[c] ?? 0), 0) };
    lines.push({ total: `col${c}`, parts: counts.map((_, r) => `${r},${c}`) });
  }
  cells.all = { students: counts.flat().reduce((a, b) => a + b, 0) };
  lines.push({ total: 'all', parts: counts.map((_, r) => `row${r}`) });
  lines.push({ total: 'all', parts: Array.from({ length: columns }, (_, c) => `col${c}`) });
  return { cells, lines };
}

/**
 * Whether a hidden cell of a cross table is pinned down by the shown figures, worked out
 * independently of the module's algebra: with the margins written in as the cells of one more row
 * and column, every row and column of the grid sums to nothing, and adding 1 and taking 1 in
 * turn around a closed path of hidden cells keeps every sum. A hidden cell on no such path
 * (a bridge between its row and its column) has one possible value.
 */
function pinnedDown(counts: number[][], hidden: ReadonlySet<string>, cell: string): boolean {
  const rows = counts.length;
  const columns = counts[0]?.length ?? 0;
  const position = (id: string): [number, number] => {
    if (id === 'all') return [rows, columns];
    if (id.startsWith('row')) return [Number(id.slice(3)), columns];
    if (id.startsWith('col')) return [rows, Number(id.slice(3))];
    const [r, c] = id.split(',').map(Number);
    return [r ?? 0, c ?? 0];
  };
  const edges = [...hidden].filter((id) => id !== cell).map(position);
  const [startRow, endColumn] = position(cell);
  // Rows are nodes 0..rows, columns rows+1...; is the cell's column reachable from its row without it?
  const seen = new Set<number>([startRow]);
  const queue = [startRow];
  while (queue.length > 0) {
    const node = queue.shift() as number;
    for (const [r, c] of edges) {
      const [from, to] = [r, rows + 1 + c];
      const other = node === from ? to : node === to ? from : undefined;
      if (other !== undefined && !seen.has(other)) {
        seen.add(other);
        queue.push(other);
      }
    }
  }
  return !seen.has(rows + 1 + endColumn);
}

const threshold = fc.integer({ min: 3, max: 10 });
const counts = fc
  .tuple(fc.integer({ min: 1, max: 4 }), fc.integer({ min: 1, max: 4 }))
  .chain(([rows, columns]) =>
    fc.array(fc.array(fc.integer({ min: 0, max: 25 }), { minLength: columns, maxLength: columns }), {
      minLength: rows,
      maxLength: rows,
    }),
  );

describe('cells to hide', () => {
  it('hides a cell of fewer students than the threshold, zero included, and shows the rest', () => {
    const hidden = cellsToHide(
      { cells: { a: { students: 4 }, b: { students: 5 }, c: { students: 0 }, d: { students: 40 } } },
      5,
    );
    expect([...hidden].sort()).toEqual(['a', 'c']);
  });

  it('hides the smallest other part of a row when one part is hidden and the total is shown', () => {
    const table = {
      cells: { total: { students: 30 }, a: { students: 2 }, b: { students: 8 }, c: { students: 20 } },
      lines: [{ total: 'total', parts: ['a', 'b', 'c'] }],
    };
    expect([...cellsToHide(table, 5)].sort()).toEqual(['a', 'b']);
  });

  it('hides more than two parts when the two hidden ones add up to a small group', () => {
    const table = {
      cells: {
        total: { students: 40 },
        a: { students: 1 },
        b: { students: 2 },
        c: { students: 6 },
        d: { students: 31 },
      },
      lines: [{ total: 'total', parts: ['a', 'b', 'c', 'd'] }],
    };
    // a and b are both hidden, but a + b = 40 - 6 - 31 = 3 students would be known.
    expect([...cellsToHide(table, 5)].sort()).toEqual(['a', 'b', 'c']);
  });

  it('hides the total when it alone would give the single hidden part', () => {
    const table = {
      cells: { total: { students: 6 }, a: { students: 2 }, b: { students: 4 } },
      lines: [{ total: 'total', parts: ['a', 'b'] }],
    };
    expect([...cellsToHide(table, 5)].sort()).toEqual(['a', 'b']);
  });

  it('counts a figure that is never shown as hidden, so one small part beside it stays protected', () => {
    const table = {
      cells: {
        everyone: { students: 50 },
        answered: { students: 3 },
        silent: { students: 47, published: false },
      },
      lines: [{ total: 'everyone', parts: ['answered', 'silent'] }],
    };
    expect([...cellsToHide(table, 5)].sort()).toEqual(['answered', 'silent']);
  });

  it('hides nothing more for a figure that is never shown, however small', () => {
    const table = {
      cells: {
        everyone: { students: 50 },
        answered: { students: 48 },
        silent: { students: 2, published: false },
      },
      lines: [{ total: 'everyone', parts: ['answered', 'silent'] }],
    };
    expect([...cellsToHide(table, 5)]).toEqual(['silent']);
  });

  it('treats a total that the shown figures give away as shown', () => {
    // everyone = a + b is shown through a and b; so low + other = everyone - 6 - 7 = 2 would be known.
    const table = {
      cells: {
        a: { students: 5 },
        b: { students: 10 },
        everyone: { students: 15, published: false },
        low: { students: 2 },
        moderate: { students: 6 },
        high: { students: 7 },
        other: { students: 0, published: false },
      },
      lines: [
        { total: 'everyone', parts: ['a', 'b'] },
        { total: 'everyone', parts: ['low', 'moderate', 'high', 'other'] },
      ],
    };
    expect([...cellsToHide(table, 5)].sort()).toEqual(['everyone', 'low', 'moderate', 'other']);
  });

  it('leaves a table with no small group whole', () => {
    expect(
      cellsToHide(
        crossTable([
          [5, 6],
          [7, 8],
        ]),
        5,
      ).size,
    ).toBe(0);
  });

  it('refuses a line naming a cell it was not given', () => {
    expect(() =>
      cellsToHide({ cells: { a: { students: 1 } }, lines: [{ total: 'a', parts: ['b'] }] }, 5),
    ).toThrow(/unknown cell "b"/);
  });

  it('hides every small cell and leaves none computable from the shown cells of its row, column and total', () => {
    fc.assert(
      fc.property(counts, threshold, (grid, n) => {
        const table = crossTable(grid);
        const hidden = cellsToHide(table, n);
        for (const [id, cell] of Object.entries(table.cells)) {
          if (cell.students < n) expect(hidden.has(id), `${id} (${cell.students} students)`).toBe(true);
        }
        for (const line of table.lines ?? []) {
          const members = [line.total, ...line.parts];
          const hiddenMembers = members.filter((id) => hidden.has(id));
          // One hidden cell in a line is the total minus the rest, or the sum of the parts.
          expect(hiddenMembers.length, members.join(' ')).not.toBe(1);
          if (hiddenMembers.length > 0 && !hidden.has(line.total)) {
            const sum = line.parts
              .filter((id) => hidden.has(id))
              .reduce((s, id) => s + (table.cells[id]?.students ?? 0), 0);
            expect(sum, `hidden parts of ${line.total}`).toBeGreaterThanOrEqual(n);
          }
        }
        for (const id of hidden) {
          if ((table.cells[id]?.students ?? 0) < n) expect(pinnedDown(grid, hidden, id), id).toBe(false);
        }
      }),
      { numRuns: propertyRuns(600) },
    );
  });

  it('hides nothing more than the small cells when no line ties them to shown ones', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 30 }), { maxLength: 12 }), threshold, (values, n) => {
        const cells = Object.fromEntries(values.map((students, i) => [`m${i}`, { students }]));
        const hidden = cellsToHide({ cells }, n);
        values.forEach((students, i) => {
          expect(hidden.has(`m${i}`)).toBe(students < n);
        });
      }),
      { numRuns: propertyRuns(300) },
    );
  });
});
