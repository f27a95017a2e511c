import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { checkFeatureDoors } from '../../test/helpers/feature-doors';

const ROOT = path.resolve(import.meta.dirname, '../..');

describe('the features of the server', () => {
  // It reads a thousand files: the limit only stops a hung run, a loaded machine being slower.
  it('reach one another only through their front doors, and no two depend on each other', {
    timeout: 60_000,
  }, () => {
    const report = checkFeatureDoors({
      root: ROOT,
      featuresDir: 'src/server/features',
      roots: ['src', 'test'],
    });
    expect(report.deepImports).toEqual([]);
    expect(report.cycles).toEqual([]);
  });
});

describe('checkFeatureDoors', () => {
  let tree: string;

  /** A small tree of features: each file is given by its path under features/ and its imports. */
  function plant(files: Record<string, string[]>) {
    tree = fs.mkdtempSync(path.join(os.tmpdir(), 'feature-doors-'));
    for (const [file, imports] of Object.entries(files)) {
      const full = path.join(tree, 'features', file);
      fs.mkdirSync(path.dirname(full), { recursive: true });
      const lines = imports.map((from, i) => `import { x${i} } from '${from}';`);
      fs.writeFileSync(full, `${lines.join('\n')}\nexport const x = 1;\n`);
    }
    return checkFeatureDoors({ root: tree, featuresDir: 'features', roots: ['.'] });
  }

  afterEach(() => fs.rmSync(tree, { recursive: true, force: true }));

  it('passes features that use each other through their front doors, in one direction', () => {
    const report = plant({
      'a/index.ts': ['./service'],
      'a/service.ts': ['./queries', '../b'],
      'a/queries.ts': [],
      'b/index.ts': ['./sub/inner'],
      'b/sub/inner.ts': ['../queries'],
      'b/queries.ts': [],
      'b/b.test.ts': ['../a'],
    });
    expect(report).toEqual({ deepImports: [], cycles: [] });
  });

  it("fails a feature that reaches into another's inner file", () => {
    const report = plant({
      'a/index.ts': [],
      'a/service.ts': ['../b/queries'],
      'b/index.ts': [],
      'b/queries.ts': [],
    });
    expect(report.deepImports).toEqual([
      { from: path.join('features', 'a', 'service.ts'), to: path.join('features', 'b', 'queries.ts') },
    ]);
  });

  it('fails code outside the features that reaches into one', () => {
    const report = plant({ 'a/index.ts': [], 'a/service.ts': [], '../app.ts': ['./features/a/service'] });
    expect(report.deepImports).toEqual([{ from: 'app.ts', to: path.join('features', 'a', 'service.ts') }]);
  });

  it('fails two features that import each other', () => {
    const report = plant({ 'a/index.ts': ['../b'], 'b/index.ts': [], 'b/service.ts': ['../a'] });
    expect(report.cycles).toEqual([['a', 'b']]);
  });

  it('fails a longer loop of features, type-only imports included', () => {
    const report = plant({
      'a/index.ts': ['../b'],
      'b/index.ts': ['../c'],
      'c/index.ts': [],
      'c/events.ts': ['../a'],
      'd/index.ts': ['../a'],
    });
    expect(report.cycles).toEqual([['a', 'b', 'c']]);
  });
});
