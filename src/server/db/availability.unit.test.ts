import { describe, expect, it } from 'vitest';
import { DatabaseHealth, databaseUnavailability, fromPostgres, type HealthEvent } from './availability';

const withCode = (code: string, message = 'failed') => Object.assign(new Error(message), { code });
const postgres = (error: Error) => fromPostgres(error);

describe('databaseUnavailability', () => {
  it.each([
    ['PostgreSQL shutting down', postgres(withCode('57P01'))],
    ['PostgreSQL starting up', postgres(withCode('57P03'))],
    ['too many connections', postgres(withCode('53300'))],
    ['a read-only PostgreSQL', postgres(withCode('25006'))],
    ['a connection exception', postgres(withCode('08006'))],
    ['a refused connection', postgres(withCode('ECONNREFUSED'))],
    ['a reset connection', postgres(withCode('ECONNRESET'))],
    ['a connection lost mid-query', postgres(new Error('Connection terminated unexpectedly'))],
    ['a connect timeout', postgres(new Error('timeout exceeded when trying to connect'))],
    ['SQLite busy', withCode('SQLITE_BUSY')],
    ['SQLite full', withCode('SQLITE_FULL')],
    ['SQLite read-only', withCode('SQLITE_READONLY')],
    ['an SQLite write error', withCode('SQLITE_IOERR_WRITE')],
  ])('counts %s as an outage', (_name, error) => {
    expect(databaseUnavailability(error)).not.toBeNull();
  });

  it.each([
    ['a unique violation', postgres(withCode('23505'))],
    ['an SQLite constraint', withCode('SQLITE_CONSTRAINT_UNIQUE')],
    ['a syntax error', postgres(withCode('42601'))],
    ['a refused connection to another service', withCode('ECONNREFUSED')],
    ['another service shutting down', withCode('57P01')],
    ['a bug', new TypeError('undefined is not a function')],
    ['nothing', undefined],
  ])('does not count %s as an outage', (_name, error) => {
    expect(databaseUnavailability(error)).toBeNull();
  });

  it('says what happened in words for people', () => {
    expect(databaseUnavailability(withCode('SQLITE_FULL'))?.message).toMatch(/run out of storage/);
    expect(databaseUnavailability(postgres(withCode('57P01')))?.message).toMatch(/try again/);
  });
});

describe('DatabaseHealth', () => {
  const full = () => withCode('SQLITE_FULL');

  function record(settleMs = 1_000) {
    const clock = { now: 1_000 };
    const health = new DatabaseHealth(() => clock.now, settleMs);
    const events: HealthEvent[] = [];
    health.observe((event) => events.push(event));
    return { clock, health, events };
  }

  it('announces an outage once however many requests fail, and its end once', () => {
    const { clock, health, events } = record();
    health.committed();
    for (let i = 0; i < 50; i++) health.failed(postgres(withCode('ECONNREFUSED')));
    health.failed(new TypeError('a bug is not an outage'));
    clock.now += 1_500;
    health.committed();
    health.committed();
    expect(events).toEqual([
      { state: 'down', reason: 'ECONNREFUSED' },
      { state: 'up', downForMs: 1_500 },
    ]);
    expect(health.isDown).toBe(false);
  });

  it('stays down through commits that slip between failures: 20 s of a flapping full disk is one outage', () => {
    const { clock, health, events } = record();
    // A failure and then a lucky small commit every 100 ms, as a nearly full disk gives.
    for (let ms = 0; ms < 20_000; ms += 100) {
      health.failed(full());
      clock.now += 50;
      health.committed();
      clock.now += 50;
    }
    expect(events).toEqual([{ state: 'down', reason: 'SQLITE_FULL' }]);
    expect(health.isDown).toBe(true);
    expect(health.downReason).toBe('SQLITE_FULL');
    // Then the disk has room: the first commit a quiet second after the last failure says so, once.
    clock.now += 899;
    health.committed();
    expect(health.isDown).toBe(true);
    clock.now += 1;
    health.committed();
    health.committed();
    expect(events).toEqual([
      { state: 'down', reason: 'SQLITE_FULL' },
      { state: 'up', downForMs: 20_900 },
    ]);
    expect(health.downReason).toBeNull();
  });

  it('goes down again, and says so, at a failure after it was announced back', () => {
    const { clock, health, events } = record();
    health.failed(full());
    clock.now += 2_000;
    health.committed();
    clock.now += 10;
    health.failed(withCode('SQLITE_READONLY'));
    expect(events.map((event) => event.state)).toEqual(['down', 'up', 'down']);
  });

  it('does not count failures that are not outages, nor a lock another instance held too long', () => {
    const { health, events } = record();
    expect(health.failed(postgres(withCode('23505')))).toBeNull();
    expect(health.failed(postgres(withCode('55P03')))?.outage).toBe(false);
    expect(health.failed(postgres(withCode('57014')))?.outage).toBe(false);
    expect(health.isDown).toBe(false);
    expect(events).toEqual([]);
  });
});
