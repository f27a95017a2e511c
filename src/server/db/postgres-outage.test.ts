/**
 * After a PostgreSQL outage the pool serves the very next request: a connection the outage broke
 * is dropped, never handed out again, and nothing holds requests back once the database answers
 * (no circuit breaker, no backoff between requests). The outage is a proxy between the pool and
 * the database that cuts or refuses connections; the database itself keeps running.
 */
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp } from '../../../test/helpers/app';
import { createPostgresSchema } from '../../../test/helpers/databases';
import { FaultProxy } from '../../../test/helpers/fault-proxy';
import { type Db, migrateToLatest, openDatabase } from '.';
import { databaseUnavailability, type HealthEvent } from './availability';

const postgresUrl = process.env.TEST_DATABASE_URL;
const POOL_SIZE = 4;
/** Requests made while the database is away; each must fail as an outage. */
const REQUESTS_DURING_OUTAGE = 10;

describe.skipIf(!postgresUrl)('the PostgreSQL pool after an outage', () => {
  let proxy: FaultProxy;
  let schemaUrl: string;
  let dropSchema: (() => Promise<void>) | undefined;
  let db: Db;
  let app: FastifyInstance;
  let events: HealthEvent[];

  beforeAll(async () => {
    const upstream = new URL(postgresUrl as string);
    proxy = await FaultProxy.start(upstream.hostname, Number(upstream.port || 5432));
    const schema = await createPostgresSchema('pool_outage');
    schemaUrl = schema.url;
    dropSchema = schema.drop;
  });

  afterAll(async () => {
    proxy?.close();
    await dropSchema?.();
  });

  beforeEach(async () => {
    await proxy.accept();
    // Back at the first committed write: the settling time has its own unit test.
    db = openDatabase(
      { kind: 'postgres', url: proxy.route(schemaUrl), poolSize: POOL_SIZE },
      { recoverySettleMs: 0 },
    );
    await migrateToLatest(db);
    app = await buildTestApp(db);
    await app.ready();
    events = [];
    db.health.observe((event) => events.push(event));
    // Every connection of the pool open and idle, as in a server that has been busy.
    await Promise.all(Array.from({ length: POOL_SIZE }, () => ping()));
  });

  afterEach(async () => {
    await app.close();
    await db.close();
  });

  const ping = () => sql`select 1 as one`.execute(db.kysely);

  /** What a request meets: nothing, or the error it fails with. */
  async function outcome(): Promise<unknown> {
    try {
      await ping();
      return null;
    } catch (error) {
      return error;
    }
  }

  async function ready(): Promise<number> {
    return (await app.inject({ method: 'GET', url: '/api/health/ready' })).statusCode;
  }

  it('serves the next request after a restart cut every connection, idle or busy', async () => {
    let holding: () => void = () => {};
    let cut: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      holding = resolve;
    });
    const failed = db.kysely
      .transaction()
      .execute(async (trx) => {
        await sql`select 1`.execute(trx);
        holding();
        await new Promise<void>((resolve) => {
          cut = resolve;
        });
        await sql`select 2`.execute(trx);
      })
      .then(
        () => null,
        (error: unknown) => error,
      );
    await held;

    expect(proxy.dropAll()).toBeGreaterThanOrEqual(POOL_SIZE);
    cut();
    expect(databaseUnavailability(await failed), 'the busy request failed as an outage').not.toBeNull();

    expect(await outcome(), 'the first request after the restart').toBeNull();
    expect(await ready()).toBe(200);
    expect(events.map((event) => event.state)).toEqual(['down', 'up']);
  });

  it('fails every request while connections are refused, and serves the first one after', async () => {
    proxy.refuse();
    proxy.dropAll();
    const during: unknown[] = [];
    for (let i = 0; i < REQUESTS_DURING_OUTAGE; i++) during.push(await outcome());
    expect(during.filter((error) => databaseUnavailability(error) === null)).toEqual([]);
    expect(await ready(), 'not ready during the outage').toBe(503);
    expect(db.health.isDown).toBe(true);

    await proxy.accept();
    expect(await outcome(), 'the first request after the database returned').toBeNull();
    expect(db.health.isDown, 'a read proves nothing about writes').toBe(true);
    expect(await ready(), 'the first probe after the database returned').toBe(200);
    expect(db.health.isDown, "the probe's committed write").toBe(false);
    expect(events.map((event) => event.state)).toEqual(['down', 'up']);
  });

  it('is not ready while its write cannot be made, though the database answers reads, and ready after', async () => {
    const other = db.newClient?.() as NonNullable<ReturnType<NonNullable<Db['newClient']>>>;
    await other.connect();
    try {
      await other.query('begin');
      await other.query('lock table instance_heartbeats in exclusive mode');
      expect(await outcome(), 'reads go on').toBeNull();
      const response = await app.inject({ method: 'GET', url: '/api/health/ready' });
      expect(response.statusCode).toBe(503);
      expect(response.json()).toMatchObject({
        status: 'unavailable',
        code: 'DATABASE_UNAVAILABLE',
        reason: expect.stringMatching(/55P03/),
      });
      await other.query('rollback');
    } finally {
      await other.end();
    }
    expect(await ready()).toBe(200);
    expect(events, 'another session holding a lock is no outage').toEqual([]);
  });

  it("is not ready while a pool's worth of requests waits for a connection and none is free", async () => {
    let release: () => void = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    let holding = 0;
    let allHeld: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      allHeld = resolve;
    });
    const holders = Array.from({ length: POOL_SIZE }, () =>
      db.kysely.transaction().execute(async (trx) => {
        await sql`select 1`.execute(trx);
        if (++holding === POOL_SIZE) allHeld();
        await released;
      }),
    );
    await held;
    const waiting = Array.from({ length: POOL_SIZE }, () => ping());
    const response = await app.inject({ method: 'GET', url: '/api/health/ready' });
    release();
    await Promise.all([...holders, ...waiting]);
    expect(response.statusCode).toBe(503);
    expect(response.json()).toMatchObject({ code: 'DATABASE_POOL_EXHAUSTED' });
    expect(await ready()).toBe(200);
  });

  it('answers writes 503 and is not ready while the database is read-only, and ready once it takes writes', async () => {
    // Every pooled session made read-only, as a read-only server (a standby) makes them.
    const everySession = async (setting: 'on' | 'off') => {
      let arrived = 0;
      let allArrived: () => void = () => {};
      const together = new Promise<void>((resolve) => {
        allArrived = resolve;
      });
      await Promise.all(
        Array.from({ length: POOL_SIZE }, () =>
          db.kysely.connection().execute(async (connection) => {
            await sql.raw(`set default_transaction_read_only = ${setting}`).execute(connection);
            if (++arrived === POOL_SIZE) allArrived();
            await together;
          }),
        ),
      );
    };
    await everySession('on');
    const write = await db.kysely
      .insertInto('instance_heartbeats')
      .values({ instance_id: 'a write', beat_at: 0 })
      .execute()
      .then(
        () => null,
        (error: unknown) => error,
      );
    expect(databaseUnavailability(write), 'a write is refused as an outage (503), not a bug').toMatchObject({
      reason: '25006',
      outage: true,
    });
    expect(await outcome(), 'reads go on').toBeNull();
    const response = await app.inject({ method: 'GET', url: '/api/health/ready' });
    expect(response.statusCode).toBe(503);
    expect(response.json()).toMatchObject({
      code: 'DATABASE_UNAVAILABLE',
      reason: expect.stringMatching(/25006/),
    });
    await everySession('off');
    expect(await ready()).toBe(200);
    expect(events.map((event) => event.state)).toEqual(['down', 'up']);
  });

  it('answers the first readiness probe after an outage with 200', async () => {
    proxy.refuse();
    proxy.dropAll();
    for (let i = 0; i < REQUESTS_DURING_OUTAGE; i++) expect(await ready()).toBe(503);
    await proxy.accept();
    expect(await ready()).toBe(200);
  });
});
