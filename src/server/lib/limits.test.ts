import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestDatabase, TEST_DIALECTS, type TestDatabase } from '../../../test/helpers/databases';
import { makeTwoInstitutions } from '../../../test/helpers/factories';
import { countHit, enforceLimit, streamSlots } from './limits';

describe.each(TEST_DIALECTS)('shared limits on %s', (dialect) => {
  let database: TestDatabase;

  beforeEach(async () => {
    database = await createTestDatabase(dialect);
  });

  afterEach(async () => database.drop());

  it('counts hits sent at the same moment one by one, and starts again once the window ends', async () => {
    const { kysely } = database.db;
    const hits = await Promise.all(
      Array.from({ length: 12 }, () => countHit(kysely, 'test:key', 60_000, 1_000)),
    );
    expect(hits.map((count) => count.hits).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 12 }, (_, i) => i + 1),
    );
    expect(hits[0]?.resetsAt).toBe(61_000);
    expect(await countHit(kysely, 'test:key', 60_000, 61_000)).toEqual({ hits: 1, resetsAt: 121_000 });
  });

  it('refuses past the rule with 429 and the message given', async () => {
    const rule = { max: 2, windowMs: 60_000 };
    await enforceLimit(database.db.kysely, 'test:address', rule, 'Too many codes.');
    await enforceLimit(database.db.kysely, 'test:address', rule, 'Too many codes.');
    await expect(
      enforceLimit(database.db.kysely, 'test:address', rule, 'Too many codes.'),
    ).rejects.toMatchObject({
      statusCode: 429,
      message: 'Too many codes.',
    });
  });

  it('gives out stream slots up to the cap, frees them on release and takes back expired ones', async () => {
    const { kysely } = database.db;
    const cast = await makeTwoInstitutions(kysely);
    const slots = streamSlots(kysely, { perUser: 2, leaseMs: 60_000 });
    const first = await slots.acquire(cast.adminA.id);
    const second = await slots.acquire(cast.adminA.id);
    expect(first && second).toBeTruthy();
    expect(await slots.acquire(cast.adminA.id)).toBeNull();
    expect(await slots.acquire(cast.adminB.id)).not.toBeNull();
    await first?.release();
    expect(await slots.acquire(cast.adminA.id)).not.toBeNull();
    // A slot whose holder vanished (its instance crashed) is free once its lease has run out.
    await kysely.updateTable('stream_slots').set({ expires_at: 0 }).execute();
    expect(await slots.acquire(cast.adminA.id)).not.toBeNull();
  });
});
