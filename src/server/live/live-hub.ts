import type { FastifyBaseLogger } from 'fastify';
import { databaseUnavailability } from '../db/availability';
import type { ChangeSource } from './change-source';

/** One open stream of an institution's live data (its dashboard). */
export interface LiveWatcher<Data> {
  institutionId: number;
  userId: number;
  deliver(data: Data): Promise<void> | void;
  close(): void;
}

interface LiveHubOptions<Data> {
  source: ChangeSource;
  /** Reads the institution's fresh data, once per refresh whatever the number of its watchers. */
  load(institutionId: number): Promise<Data>;
  log: FastifyBaseLogger;
  /** A short pause that folds a burst of notices (one per submission) into one refresh. */
  coalesceMs?: number;
  /** At most one refresh per institution this often, however busy it is; keeps delivery < 1 s. */
  minIntervalMs?: number;
  /** After a refresh failed because the database was unavailable, try again this much later. */
  retryMs?: number;
}

interface RefreshState {
  timer: NodeJS.Timeout | null;
  running: boolean;
  again: boolean;
  lastStarted: number;
}

/**
 * Fans change notices out to the open streams of this app instance. Numbers are read
 * once per institution per refresh, whatever the number of its open streams, and never for an
 * institution nobody is watching here.
 */
export class LiveHub<Data> {
  private readonly watchers = new Map<number, Set<LiveWatcher<Data>>>();
  private readonly refreshes = new Map<number, RefreshState>();
  private listening: Promise<void> | null = null;
  private closed = false;
  private readonly coalesceMs: number;
  private readonly minIntervalMs: number;
  private readonly retryMs: number;
  private readonly retryTimers = new Set<NodeJS.Timeout>();

  constructor(private readonly options: LiveHubOptions<Data>) {
    this.coalesceMs = options.coalesceMs ?? 20;
    this.minIntervalMs = options.minIntervalMs ?? 250;
    this.retryMs = options.retryMs ?? 500;
  }

  /** Starts hearing changes on first use, so an instance nobody watches holds no listener connection. */
  private ensureListening(): Promise<void> {
    this.listening ??= this.options.source
      .start(
        (institutionId) => this.changed(institutionId),
        () => {
          for (const institutionId of this.watchers.keys()) this.changed(institutionId);
        },
      )
      .catch((error: unknown) => {
        this.listening = null;
        throw error;
      });
    return this.listening;
  }

  streamsOf(userId: number): number {
    let count = 0;
    for (const set of this.watchers.values())
      for (const watcher of set) if (watcher.userId === userId) count += 1;
    return count;
  }

  /** Registers a stream once changes are being heard, so nothing committed after this is missed. */
  async watch(watcher: LiveWatcher<Data>): Promise<() => void> {
    if (this.closed) throw new Error('Dashboard updates are shutting down');
    await this.ensureListening();
    const set = this.watchers.get(watcher.institutionId) ?? new Set();
    set.add(watcher);
    this.watchers.set(watcher.institutionId, set);
    return () => {
      set.delete(watcher);
      if (set.size === 0 && this.watchers.get(watcher.institutionId) === set)
        this.watchers.delete(watcher.institutionId);
    };
  }

  changed(institutionId: number): void {
    if (this.closed || !this.watchers.has(institutionId)) return;
    const state = this.refreshes.get(institutionId) ?? {
      timer: null,
      running: false,
      again: false,
      lastStarted: 0,
    };
    this.refreshes.set(institutionId, state);
    if (state.running) {
      state.again = true;
      return;
    }
    if (state.timer) return;
    const wait = Math.max(this.coalesceMs, state.lastStarted + this.minIntervalMs - Date.now());
    state.timer = setTimeout(() => void this.refresh(institutionId, state), wait);
  }

  private async refresh(institutionId: number, state: RefreshState) {
    state.timer = null;
    state.running = true;
    state.lastStarted = Date.now();
    try {
      const watchers = this.watchers.get(institutionId);
      if (watchers?.size && !this.closed) {
        const data = await this.options.load(institutionId);
        await Promise.allSettled([...watchers].map((watcher) => watcher.deliver(data)));
      }
    } catch (error) {
      if (databaseUnavailability(error)) {
        // The outage is logged once elsewhere; these numbers are fetched again once it passes.
        this.retryLater(institutionId);
      } else {
        this.options.log.error({ err: error, institutionId }, 'dashboard live update failed');
      }
    } finally {
      state.running = false;
      if (state.again) {
        state.again = false;
        this.changed(institutionId);
      } else if (!this.watchers.has(institutionId)) {
        this.refreshes.delete(institutionId);
      }
    }
  }

  private retryLater(institutionId: number) {
    const timer = setTimeout(() => {
      this.retryTimers.delete(timer);
      this.changed(institutionId);
    }, this.retryMs);
    this.retryTimers.add(timer);
  }

  /** Ends every open stream; runs before the server waits for its connections to finish. */
  closeStreams(): void {
    for (const set of [...this.watchers.values()]) for (const watcher of [...set]) watcher.close();
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const state of this.refreshes.values()) if (state.timer) clearTimeout(state.timer);
    for (const timer of this.retryTimers) clearTimeout(timer);
    this.retryTimers.clear();
    this.refreshes.clear();
    this.closeStreams();
    this.watchers.clear();
    if (this.listening) await this.listening.catch(() => {});
    await this.options.source.stop();
  }
}
