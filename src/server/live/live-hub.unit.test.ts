import type { FastifyBaseLogger } from 'fastify';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ChangeSource } from './change-source';
import { LiveHub, type LiveWatcher } from './live-hub';

/** A change source the test drives by hand. */
function manualSource() {
  let onChange: (institutionId: number) => void = () => {};
  const source: ChangeSource = {
    async start(heard) {
      onChange = heard;
    },
    async stop() {},
  };
  return { source, change: (institutionId: number) => onChange(institutionId) };
}

const silentLog = {
  error: () => {},
  warn: () => {},
  info: () => {},
  debug: () => {},
} as unknown as FastifyBaseLogger;

function watcher(institutionId: number, userId = 1) {
  const delivered: number[] = [];
  const closed = { count: 0 };
  const watch: LiveWatcher<number> = {
    institutionId,
    userId,
    deliver: (data) => {
      delivered.push(data);
    },
    close: () => {
      closed.count += 1;
    },
  };
  return { watch, delivered, closed };
}

describe('live hub timing', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  function hubWithCounter() {
    const { source, change } = manualSource();
    const version = new Map<number, number>();
    const loads: number[] = [];
    const hub = new LiveHub<number>({
      source,
      log: silentLog,
      load: async (institutionId) => {
        loads.push(institutionId);
        return version.get(institutionId) ?? 0;
      },
    });
    const bump = (institutionId: number) => {
      version.set(institutionId, (version.get(institutionId) ?? 0) + 1);
      change(institutionId);
    };
    return { hub, bump, loads };
  }

  it('delivers within 1 s of each change, and nothing to other institutions', async () => {
    const { hub, bump } = hubWithCounter();
    const north = watcher(1);
    const south = watcher(2);
    await hub.watch(north.watch);
    await hub.watch(south.watch);

    bump(1);
    await vi.advanceTimersByTimeAsync(999);
    expect(north.delivered).toEqual([1]);
    expect(south.delivered).toEqual([]);

    await vi.advanceTimersByTimeAsync(1_200);
    expect(south.delivered).toEqual([]);

    bump(2);
    await vi.advanceTimersByTimeAsync(999);
    expect(south.delivered).toEqual([1]);
    await vi.advanceTimersByTimeAsync(500);
    expect(north.delivered).toEqual([1]);
    await hub.close();
  });

  it('folds a burst of changes into few refreshes that end on the final data', async () => {
    const { hub, bump, loads } = hubWithCounter();
    const north = watcher(1);
    await hub.watch(north.watch);
    for (let index = 0; index < 20; index += 1) {
      bump(1);
      await vi.advanceTimersByTimeAsync(5);
    }
    await vi.advanceTimersByTimeAsync(1_000);
    expect(north.delivered.at(-1)).toBe(20);
    expect(north.delivered.length).toBeLessThan(20);
    expect(loads.length).toBe(north.delivered.length);
    await hub.close();
  });

  it('reads an institution once per refresh however many watch it, and never one nobody watches', async () => {
    const { hub, bump, loads } = hubWithCounter();
    const first = watcher(1, 1);
    const second = watcher(1, 2);
    await hub.watch(first.watch);
    await hub.watch(second.watch);
    bump(1);
    bump(3);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(loads).toEqual([1]);
    expect(first.delivered).toEqual([1]);
    expect(second.delivered).toEqual([1]);
    await hub.close();
  });

  it('ends every open stream when it closes, and delivers nothing afterwards', async () => {
    const { hub, bump } = hubWithCounter();
    const north = watcher(1);
    await hub.watch(north.watch);
    bump(1);
    await hub.close();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(north.closed.count).toBe(1);
    expect(north.delivered).toEqual([]);
  });
});
