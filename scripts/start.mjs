// `npm start` (and `npm run manage`): builds what is missing or older than its sources, then runs
// the compiled server (or, given `cli`, its command line) with plain `node`. One command from a
// fresh clone to a running product; an installation without the sources (`npm ci --omit=dev`
// beside a built dist/) just runs what was built.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const at = (relative) => path.join(ROOT, relative);

function newestMtime(file) {
  if (!fs.existsSync(file)) return 0;
  const stat = fs.statSync(file);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = 0;
  for (const entry of fs.readdirSync(file)) newest = Math.max(newest, newestMtime(path.join(file, entry)));
  return newest;
}

/** Whether `built` is missing or older than any of `sources` (when the sources are here at all). */
function isStale(built, sources) {
  const newestSource = Math.max(...sources.map((source) => newestMtime(at(source))));
  if (newestSource === 0) return false;
  return !fs.existsSync(at(built)) || newestSource > fs.statSync(at(built)).mtimeMs;
}

const webStale = isStale('dist/web/.server/entry-server.js', [
  'src/web',
  'src/common',
  'vite.config.ts',
  'lingui.config.ts',
]);
const serverStale = isStale('dist/server/main.js', [
  'src/server',
  'src/common',
  'src/web/app/catalogueAreas.ts',
]);
if (webStale || serverStale) {
  const { buildServer, buildWebApp } = await import('./build.mjs');
  if (webStale) {
    console.log('Building the web app...');
    await buildWebApp();
  }
  if (serverStale) {
    console.log('Building the server...');
    await buildServer();
  }
}

const entry = process.argv[2] === 'cli' ? 'cli' : 'main';
// The command line reads its own arguments after the entry's name.
if (entry === 'cli') process.argv.splice(2, 1);
await import(pathToFileURL(at(`dist/server/${entry}.js`)).href);
