import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Writes open their transaction through `writeTransaction` (or the runner `writerFor` gives),
 * so every write has commit hooks to announce what it changed and SQLite's writes share one
 * group-commit queue; consistent reads use `readSnapshot`. Only db/ opens transactions itself.
 */
const serverRoot = path.resolve(import.meta.dirname, '..');
const OPENS_A_TRANSACTION = /\.(?:transaction|startTransaction)\(\)/;

function productFiles(folder: string): string[] {
  return fs.readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(folder, entry.name);
    if (entry.isDirectory()) return productFiles(full);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

describe('one way to open a transaction', () => {
  it('is owned by db/: no other server module opens one itself', () => {
    const offenders = productFiles(serverRoot)
      .filter((file) => !file.startsWith(path.join(serverRoot, 'db') + path.sep))
      .flatMap((file) =>
        fs
          .readFileSync(file, 'utf8')
          .split('\n')
          .flatMap((line, index) =>
            OPENS_A_TRANSACTION.test(line) ? [`${path.relative(serverRoot, file)}:${index + 1}`] : [],
          ),
      );
    expect(offenders).toEqual([]);
  });

  it('would see a module that did', () => {
    expect(OPENS_A_TRANSACTION.test('await db.transaction().execute(async (trx) => {')).toBe(true);
    expect(OPENS_A_TRANSACTION.test('const trx = await db.startTransaction().execute();')).toBe(true);
    expect(OPENS_A_TRANSACTION.test('await writeTransaction(db, async (trx) => {')).toBe(false);
  });
});
