/** Background work that runs now when woken and otherwise every `pollMs`. */
export interface Poller {
  /** Runs the work now (after a commit that made some due) instead of at the next poll. */
  wake(): void;
  /** Lets a running pass finish and runs no more. */
  stop(): Promise<void>;
}

/**
 * Runs `work` once at start, then every `pollMs` and whenever woken; never two passes at once.
 * A wake during a pass runs one more pass right after it, so nothing made due meanwhile waits
 * for the next poll. The poll also picks up work that other instances made due.
 */
export function startPoller(options: {
  work: () => Promise<unknown>;
  pollMs: number;
  onError: (error: unknown) => void;
}): Poller {
  const { work, pollMs, onError } = options;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let again = false;

  const run = () => {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    clearTimeout(timer);
    running = work()
      .then(
        () => undefined,
        (error) => onError(error),
      )
      .finally(() => {
        running = undefined;
        if (stopped) return;
        if (again) {
          again = false;
          run();
        } else {
          timer = setTimeout(run, pollMs);
          timer.unref();
        }
      });
  };
  run();

  return {
    wake: run,
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
