/**
 * `npm start`: builds the web app when the build is missing or older than its sources, then
 * starts the server. One command from a fresh clone to a running product.
 */
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '../..');
const builtIndex = path.join(root, 'dist/web/index.html');

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    const time = entry.isDirectory() ? newestMtime(full) : fs.statSync(full).mtimeMs;
    newest = Math.max(newest, time);
  }
  return newest;
}

function buildIsStale(): boolean {
  if (!fs.existsSync(builtIndex)) return true;
  const sources = Math.max(
    newestMtime(path.join(root, 'src/web')),
    newestMtime(path.join(root, 'src/common')),
    fs.statSync(path.join(root, 'vite.config.ts')).mtimeMs,
  );
  return sources > fs.statSync(builtIndex).mtimeMs;
}

if (buildIsStale()) {
  console.log('Building the web app...');
  const { build } = await import('vite');
  // The config's own root (src/web) must stay: an inline root would replace it.
  await build({
    root: path.join(root, 'src/web'),
    configFile: path.join(root, 'vite.config.ts'),
    logLevel: 'warn',
  });
}
await import('./main');
