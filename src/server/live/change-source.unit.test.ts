/**
 * The LISTEN connection's way back after the database went away: it tries again soon, then every
 * quarter second for as long as the outage lasts, never slower, and is listening again at its
 * first try after the database returns. Driven on fake timers, so the schedule is exact.
 */
import { EventEmitter } from 'node:events';
import type { FastifyBaseLogger } from 'fastify';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type ListenClient, PostgresChangeSource, RECONNECT_DELAYS_MS } from './change-source';
import { CHANGE_CHANNEL } from './queries';

const SCHEMA = 'north';
const LONGEST_WAIT_MS = Math.max(...RECONNECT_DELAYS_MS);

/** PostgreSQL as the listener's connections meet it: up or down, every attempt noted. */
class ListenServer {
  up = true;
  /** How many of the next connections the server cuts before they can LISTEN. */
  cutBeforeListen = 0;
  /** When each connection attempt was made, on the (fake) clock. */
  readonly attempts: number[] = [];
  readonly clients: ServerConnection[] = [];

  connect = (): ListenClient => {
    const client = new ServerConnection(this);
    this.clients.push(client);
    return client;
  };

  /** The one connection that is open and listening, if any. */
  get listening(): ServerConnection | undefined {
    return this.clients.find((client) => client.isListening);
  }

  attemptsAfter(time: number): number[] {
    return this.attempts.filter((attempt) => attempt > time);
  }
}

class ServerConnection extends EventEmitter implements ListenClient {
  private connected = false;
  private ended = false;
  private listens = false;

  constructor(private readonly server: ListenServer) {
    super();
  }

  get isListening(): boolean {
    return this.connected && this.listens && !this.ended;
  }

  async connect() {
    this.server.attempts.push(Date.now());
    if (!this.server.up) throw Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
    this.connected = true;
  }

  async query(text: string) {
    if (this.server.cutBeforeListen > 0) {
      this.server.cutBeforeListen -= 1;
      this.ended = true;
      throw new Error('Connection terminated unexpectedly');
    }
    if (text === `LISTEN ${CHANGE_CHANNEL}`) this.listens = true;
  }

  async end() {
    if (this.ended) return;
    this.ended = true;
    this.emit('end');
  }

  /** The server ends the connection (a restart), as node-postgres reports it: an error, then the end. */
  cut() {
    this.emit('error', new Error('Connection terminated unexpectedly'));
    this.ended = true;
    this.emit('end');
  }

  notify(payload: string) {
    this.emit('notification', { channel: CHANGE_CHANNEL, payload, processId: 1 });
  }
}

function recordingLog() {
  const lines: { level: string; message: string }[] = [];
  const at =
    (level: string) =>
    (...args: unknown[]) =>
      lines.push({ level, message: String(args.find((arg) => typeof arg === 'string')) });
  const log = {
    error: at('error'),
    warn: at('warn'),
    info: at('info'),
    debug: at('debug'),
  } as unknown as FastifyBaseLogger;
  return { log, lines, at: (level: string) => lines.filter((line) => line.level === level) };
}

/** The gaps between consecutive times. */
const gaps = (times: number[]) => times.slice(1).map((time, i) => time - (times[i] as number));

describe('the dashboard change listener after its connection is lost', () => {
  let server: ListenServer;
  let logs: ReturnType<typeof recordingLog>;
  let source: PostgresChangeSource;
  let heard: number[];
  let resyncs: number;

  beforeEach(async () => {
    vi.useFakeTimers();
    server = new ListenServer();
    logs = recordingLog();
    heard = [];
    resyncs = 0;
    source = new PostgresChangeSource({
      schema: async () => SCHEMA,
      newClient: server.connect,
      log: logs.log,
    });
    await source.start(
      (institutionId) => heard.push(institutionId),
      () => {
        resyncs += 1;
      },
    );
    expect(server.listening).toBeDefined();
  });

  afterEach(async () => {
    await source.stop();
    vi.useRealTimers();
  });

  /** The database goes away and takes the listener's connection with it. */
  function outage(): number {
    server.up = false;
    server.listening?.cut();
    return Date.now();
  }

  it(`tries again after ${RECONNECT_DELAYS_MS.join(', ')} ms, then every ${LONGEST_WAIT_MS} ms for as long as the database stays away`, async () => {
    const lost = outage();
    await vi.advanceTimersByTimeAsync(10 * 60_000);

    const tries = server.attemptsAfter(lost);
    const waits = gaps([lost, ...tries]);
    expect(waits.slice(0, RECONNECT_DELAYS_MS.length)).toEqual(RECONNECT_DELAYS_MS);
    expect(new Set(waits.slice(RECONNECT_DELAYS_MS.length))).toEqual(new Set([LONGEST_WAIT_MS]));
    // Still trying at the end of ten minutes: the last try is at most one wait ago.
    expect(Date.now() - (tries.at(-1) as number)).toBeLessThan(LONGEST_WAIT_MS);
    expect(server.listening).toBeUndefined();
    // The loss is said once; the failed tries are not a warning each.
    expect(logs.at('warn')).toHaveLength(1);
    expect(resyncs).toBe(0);
  });

  it('listens again at its first try after the database returns, and asks for fresh numbers once', async () => {
    outage();
    await vi.advanceTimersByTimeAsync(7_321);
    server.up = true;
    const back = Date.now();
    await vi.advanceTimersByTimeAsync(LONGEST_WAIT_MS);

    expect(server.attemptsAfter(back)).toHaveLength(1);
    expect((server.attemptsAfter(back)[0] as number) - back).toBeLessThanOrEqual(LONGEST_WAIT_MS);
    expect(server.listening).toBeDefined();
    expect(resyncs).toBe(1);
    expect(logs.at('info').map((line) => line.message)).toEqual(['dashboard change listener reconnected']);

    // The new connection is the one heard from, and only our schema's notices count.
    server.listening?.notify(`${SCHEMA}:7`);
    server.listening?.notify('south:8');
    expect(heard).toEqual([7]);

    // Nothing more happens while it is connected.
    await vi.advanceTimersByTimeAsync(60_000);
    expect(server.attemptsAfter(back)).toHaveLength(1);
    expect(resyncs).toBe(1);
  });

  it('starts over from the shortest wait at the next outage', async () => {
    outage();
    await vi.advanceTimersByTimeAsync(5_000);
    server.up = true;
    await vi.advanceTimersByTimeAsync(LONGEST_WAIT_MS);
    expect(server.listening).toBeDefined();

    const lostAgain = outage();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(
      gaps([lostAgain, ...server.attemptsAfter(lostAgain)]).slice(0, RECONNECT_DELAYS_MS.length),
    ).toEqual(RECONNECT_DELAYS_MS);
  });

  it('tries again when a connection opens but is cut before it can LISTEN', async () => {
    const lost = outage();
    await vi.advanceTimersByTimeAsync(1_000);
    server.up = true;
    server.cutBeforeListen = 1;
    const back = Date.now();
    await vi.advanceTimersByTimeAsync(2 * LONGEST_WAIT_MS);

    expect(server.attemptsAfter(lost).length).toBeGreaterThan(1);
    expect(server.attemptsAfter(back)).toHaveLength(2);
    expect(server.listening).toBeDefined();
    expect(resyncs).toBe(1);
  });

  it('stops trying once it is stopped', async () => {
    outage();
    await vi.advanceTimersByTimeAsync(2_000);
    await source.stop();
    const triedBeforeStopping = server.attempts.length;
    await vi.advanceTimersByTimeAsync(60_000);
    expect(server.attempts).toHaveLength(triedBeforeStopping);
  });
});
