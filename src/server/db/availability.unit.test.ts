import { describe, expect, it } from 'vitest';
import { DatabaseHealth, databaseUnavailability, fromPostgres, type HealthEvent } from './availability';

const withCode = (code: string, message = 'failed') => Object.assign(new Error(message), { code });
const postgres = (error: Error) => fromPostgres(error);

describe('databaseUnavailability', () => {
  it.each([
    ['PostgreSQL shutting down', postgres(withCode('57P01'))],
    ['PostgreSQL starting up', postgres(withCode('57P03'))],
    ['too many connections', postgres(withCode('53300'))],
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
  it('announces an outage once however many requests fail, and its end once', () => {
    let clock = 1_000;
    const health = new DatabaseHealth(() => clock);
    const events: HealthEvent[] = [];
    health.observe((event) => events.push(event));
    health.succeeded();
    for (let i = 0; i < 50; i++) health.failed(postgres(withCode('ECONNREFUSED')));
    health.failed(new TypeError('a bug is not an outage'));
    clock += 1_500;
    health.succeeded();
    health.succeeded();
    expect(events).toEqual([
      { state: 'down', reason: 'ECONNREFUSED' },
      { state: 'up', downForMs: 1_500 },
    ]);
    expect(health.isDown).toBe(false);
  });

  it('does not count failures that are not outages', () => {
    const health = new DatabaseHealth();
    expect(health.failed(postgres(withCode('23505')))).toBeNull();
    expect(health.isDown).toBe(false);
  });
});
