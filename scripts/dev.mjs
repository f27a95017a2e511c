// `npm run dev`: the edit loop. The server runs from its TypeScript sources and restarts on every
// change (tsx watch, on PORT, 8000 by default); Vite's dev server serves the web app with instant
// updates and passes /api to that server. Open the address Vite prints. Pages are drawn by the
// browser here; the server's rendered first paint is the production build's (`npm start`).
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const children = [
  spawn(process.execPath, ['node_modules/tsx/dist/cli.mjs', 'watch', 'src/server/main.ts'], {
    cwd: ROOT,
    stdio: 'inherit',
  }),
  spawn(process.execPath, ['node_modules/vite/bin/vite.js'], { cwd: ROOT, stdio: 'inherit' }),
];

// One stops, both stop: a half-running loop only confuses.
for (const child of children) {
  child.on('exit', (code) => {
    for (const other of children) if (other !== child) other.kill();
    process.exitCode = code ?? 0;
  });
}
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    for (const child of children) child.kill(signal);
  });
}
