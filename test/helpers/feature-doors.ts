import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/**
 * The rule the server's features keep (src/server/features/*, one folder each): anything outside a
 * feature reaches it only through its front door, the folder's index.ts, and no two features
 * depend on each other, directly or round a longer loop. A feature's inside can then change
 * freely, and a change to one feature cannot come back round to it through the others.
 *
 * Imports are read with the TypeScript compiler's own pre-processor (static, dynamic and type-only
 * imports and re-exports alike); only relative specifiers can reach another feature.
 */

export interface DeepImport {
  /** The importing file and the file it reaches, relative to the root given. */
  from: string;
  to: string;
}

export interface FeatureDoorsReport {
  /** Imports of a feature's inner files from outside that feature. */
  deepImports: DeepImport[];
  /** Groups of features that depend on each other (each sorted), from their non-test files. */
  cycles: string[][];
}

const SOURCE = /\.tsx?$/;
const TEST = /\.test\.tsx?$/;

function sourceFiles(folder: string): string[] {
  return fs.readdirSync(folder, { withFileTypes: true, recursive: true }).flatMap((entry) => {
    const file = path.join(entry.parentPath, entry.name);
    return entry.isFile() && SOURCE.test(entry.name) && !file.includes('node_modules') ? [file] : [];
  });
}

function resolveRelative(fromFile: string, specifier: string): string | undefined {
  const base = path.resolve(path.dirname(fromFile), specifier);
  return [base, `${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts')].find(
    (candidate) => fs.existsSync(candidate) && fs.statSync(candidate).isFile(),
  );
}

/**
 * Checks every file under `roots` (features included) against the features under `featuresDir`.
 * Paths in the report are relative to `root`.
 */
export function checkFeatureDoors(options: {
  root: string;
  featuresDir: string;
  roots: string[];
}): FeatureDoorsReport {
  const featuresDir = path.resolve(options.root, options.featuresDir);
  const features = new Set(
    fs
      .readdirSync(featuresDir, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name),
  );
  const featureOf = (file: string) => {
    const [first, ...rest] = path.relative(featuresDir, file).split(path.sep);
    return first !== undefined && rest.length > 0 && features.has(first) ? first : undefined;
  };
  const files = new Set(options.roots.flatMap((root) => sourceFiles(path.resolve(options.root, root))));
  const deepImports: DeepImport[] = [];
  const dependsOn = new Map<string, Set<string>>([...features].map((feature) => [feature, new Set()]));
  for (const file of [...files].sort()) {
    const own = featureOf(file);
    const { importedFiles } = ts.preProcessFile(fs.readFileSync(file, 'utf8'), true, true);
    for (const { fileName } of importedFiles) {
      if (!fileName.startsWith('.')) continue;
      const target = resolveRelative(file, fileName);
      const feature = target && featureOf(target);
      if (!target || !feature || feature === own) continue;
      if (target !== path.join(featuresDir, feature, 'index.ts')) {
        deepImports.push({
          from: path.relative(options.root, file),
          to: path.relative(options.root, target),
        });
      }
      // A test may set up data through other features: it is not part of what its feature needs.
      if (own && !TEST.test(file)) dependsOn.get(own)?.add(feature);
    }
  }
  return { deepImports, cycles: stronglyConnected(dependsOn).filter((group) => group.length > 1) };
}

/** Tarjan's strongly connected components: each group of nodes that reach one another. */
function stronglyConnected(edges: Map<string, Set<string>>): string[][] {
  const index = new Map<string, number>();
  const lowest = new Map<string, number>();
  const stack: string[] = [];
  const groups: string[][] = [];
  const visit = (node: string) => {
    index.set(node, index.size);
    lowest.set(node, index.get(node) as number);
    stack.push(node);
    for (const next of edges.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        lowest.set(node, Math.min(lowest.get(node) as number, lowest.get(next) as number));
      } else if (stack.includes(next)) {
        lowest.set(node, Math.min(lowest.get(node) as number, index.get(next) as number));
      }
    }
    if (lowest.get(node) === index.get(node)) {
      const group: string[] = [];
      let member: string | undefined;
      do {
        member = stack.pop() as string;
        group.push(member);
      } while (member !== node);
      groups.push(group.sort());
    }
  };
  for (const node of [...edges.keys()].sort()) if (!index.has(node)) visit(node);
  return groups;
}
