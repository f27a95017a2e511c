import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { LIMIT_ROWS, LIMITS, type LimitName } from './limit-table';

const README = fs.readFileSync(path.resolve(import.meta.dirname, '../../README.md'), 'utf8');

/** The rows of the first markdown table after the heading, each as its cells. */
function tableAfter(heading: string): string[][] {
  const lines = README.slice(README.indexOf(heading)).split('\n');
  const start = lines.findIndex((line) => line.startsWith('|'));
  const rows: string[][] = [];
  for (const line of lines.slice(start)) {
    if (!line.startsWith('|')) break;
    rows.push(
      line
        .slice(1, -1)
        .split('|')
        .map((cell) => cell.trim()),
    );
  }
  return rows;
}

describe("the README's Limits table", () => {
  it('says what the limit table holds, row for row', () => {
    const [header, rule, ...rows] = tableAfter('### Limits');
    expect(header).toEqual(['what', 'limit', 'counted per']);
    expect(rule).toEqual(['---', '---', '---']);
    expect(rows).toEqual(LIMIT_ROWS.map((row) => [row.what, row.limit, row.per]));
  });

  it('tells of every limit in the table', () => {
    const covered = new Set<LimitName>(LIMIT_ROWS.flatMap((row) => row.covers));
    expect(Object.keys(LIMITS).filter((name) => !covered.has(name as LimitName))).toEqual([]);
  });

  it("gives each limit an operator may change its table value as the setting's default", () => {
    const settings = new Map(
      tableAfter('| variable | default | meaning |').map(([name, value]) => [name, value]),
    );
    for (const limit of Object.values(LIMITS)) {
      if (!('env' in limit)) continue;
      expect(settings.get(`\`${limit.env}\``), limit.env).toBe(`\`${limit.max}\``);
    }
  });
});
