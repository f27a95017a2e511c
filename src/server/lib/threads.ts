import { Worker } from 'node:worker_threads';

const BOOTSTRAP = new URL('./typescript-thread.mjs', import.meta.url);

/**
 * Starts a thread running the module at `entry` (a file URL), with `workerData`: compiled
 * JavaScript (the production build) as it is, TypeScript (tests, `npm run dev`) through tsx.
 */
export function startModuleThread(entry: string, workerData: unknown): Worker {
  if (!entry.endsWith('.ts')) return new Worker(new URL(entry), { execArgv: [], workerData });
  return new Worker(BOOTSTRAP, { argv: [entry], execArgv: [], workerData });
}
