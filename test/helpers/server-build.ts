/**
 * The server compiled once for the process suites, so each of their many spawns starts plain
 * JavaScript instead of compiling the sources through a TypeScript loader first. Built from the
 * sources as they are when the run starts, into a folder of this run's own; a spawn uses it only
 * while no source file is newer than the build (a watch run after an edit), else the sources.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '../..');
/** Where the global setup tells the workers the build is. */
export const SERVER_BUILD_VARIABLE = 'TEST_SERVER_BUILD';
/** When that build started, in milliseconds: sources changed after it are not in it. */
export const SERVER_BUILT_AT_VARIABLE = 'TEST_SERVER_BUILT_AT';
const SOURCES = ['src/server', 'src/common'].map((folder) => path.join(ROOT, folder));

/** Builds the server (scripts/build.mjs, as `npm run build` does) and returns the folder. */
export function buildServerForTests(): { folder: string; builtAt: number } {
  // Inside the checkout: the build leaves packages to node_modules, found from where it lies.
  const parent = path.join(ROOT, 'test-results');
  fs.mkdirSync(parent, { recursive: true });
  const folder = fs.mkdtempSync(path.join(parent, 'process-server-'));
  // A second earlier than the build starts: file times may be coarser than the clock.
  const builtAt = Date.now() - 1_000;
  execFileSync(process.execPath, [path.join(ROOT, 'scripts', 'build.mjs'), 'server', folder], {
    cwd: ROOT,
    stdio: 'inherit',
  });
  return { folder, builtAt };
}

function newestSourceChange(folder: string): number {
  let newest = 0;
  for (const entry of fs.readdirSync(folder, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    newest = Math.max(newest, fs.statSync(path.join(entry.parentPath, entry.name)).mtimeMs);
  }
  return newest;
}

/** The compiled entry point when this run built one and the sources have not changed since, else null. */
export function currentServerBuild(): string | null {
  const folder = process.env[SERVER_BUILD_VARIABLE];
  const builtAt = Number(process.env[SERVER_BUILT_AT_VARIABLE]);
  if (!folder || !Number.isFinite(builtAt)) return null;
  const main = path.join(folder, 'main.js');
  if (!fs.existsSync(main)) return null;
  for (const source of SOURCES) if (newestSourceChange(source) > builtAt) return null;
  return main;
}

/** How a spawn runs the command line: this run's current build of it, else the sources through tsx. */
export function cliEntry(): string[] {
  const main = currentServerBuild();
  return main ? [path.join(path.dirname(main), 'cli.js')] : ['--import', 'tsx', 'src/server/cli.ts'];
}
