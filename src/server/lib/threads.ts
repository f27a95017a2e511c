import { Worker } from 'node:worker_threads';

const BOOTSTRAP = new URL('./typescript-thread.mjs', import.meta.url);

/** Starts a thread running the TypeScript module at `entry` (a file URL), with `workerData`. */
export function startTypeScriptThread(entry: string, workerData: unknown): Worker {
  return new Worker(BOOTSTRAP, { argv: [entry], execArgv: [], workerData });
}
