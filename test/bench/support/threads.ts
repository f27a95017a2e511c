import { startModuleThread } from '../../../src/server/lib/threads';

/**
 * Runs the benchmark module at `moduleUrl` in a thread of its own with `data` (the module looks
 * at `data.role` to know what to be); resolves with the thread's first message and a way to stop
 * it: the thread is told to close, answers once it has, and is then ended.
 */
export async function startBenchThread<Ready>(
  moduleUrl: string,
  data: { role: string; [key: string]: unknown },
) {
  const worker = startModuleThread(moduleUrl, data);
  const ready = await new Promise<Ready>((resolve, reject) => {
    worker.once('message', (message: Ready) => resolve(message));
    worker.once('error', reject);
  });
  const stop = async () => {
    await new Promise<void>((resolve) => {
      worker.once('message', () => resolve());
      worker.postMessage('close');
    });
    await worker.terminate();
  };
  return { ready, stop };
}
