import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createTestApp, TEST_SECRET, TestAgent, type TestContext } from '../../../test/helpers/app';
import { addSubmission } from '../../../test/helpers/dashboard-data';
import { TEST_DIALECTS } from '../../../test/helpers/databases';
import { EventStreamClient } from '../../../test/helpers/event-stream-client';
import { makeTwoInstitutions } from '../../../test/helpers/factories';
import { buildApp } from '../app';
import { MAX_STREAMS_PER_USER } from '../features/dashboard';

/**
 * A hang guard only: how fast updates arrive is a rule of the hub, asserted on a fake clock in
 * live-hub.test.ts; here only what arrives, and in which order.
 */
const GUARD_MS = 5_000;

describe.each(TEST_DIALECTS)('dashboard live updates (%s)', (dialect) => {
  let context: TestContext;
  let baseUrl: string;
  let cast: Awaited<ReturnType<typeof makeTwoInstitutions>>;
  const clients: EventStreamClient[] = [];

  async function sessionCookieOf(email: string) {
    const agent = new TestAgent(context.app);
    await agent.signInDirectly(context.db, email);
    return { agent, cookie: `sessionid=${agent.jar.get('sessionid')}` };
  }

  async function openStream(url: string, cookie: string) {
    const client = await EventStreamClient.open(url, cookie);
    clients.push(client);
    return client;
  }

  const openSlotsOf = async (userId: number) =>
    (
      await context.db.kysely
        .selectFrom('stream_slots')
        .select('slot')
        .where('user_id', '=', userId)
        .execute()
    ).length;

  const submitTo = (institutionId: number, email: string) =>
    addSubmission(context.db.kysely, {
      institutionId,
      email,
      name: 'Live Student',
      at: Date.now(),
      tier: 'urgent',
      answers: [],
    });

  beforeEach(async () => {
    context = await createTestApp(dialect);
    cast = await makeTwoInstitutions(context.db.kysely);
    await context.app.listen({ port: 0, host: '127.0.0.1' });
    baseUrl = `http://127.0.0.1:${(context.app.server.address() as AddressInfo).port}`;
  });
  afterEach(async () => {
    for (const client of clients.splice(0)) client.close();
    await context.close();
  });

  it("sends the admin's numbers at once, then after each submission, and nothing from other institutions", async () => {
    const north = await openStream(baseUrl, (await sessionCookieOf(cast.adminA.email)).cookie);
    const south = await openStream(baseUrl, (await sessionCookieOf(cast.adminB.email)).cookie);
    expect(north.status).toBe(200);
    expect(north.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    expect((await north.waitForEvents(1, 2_000))[0]).toMatchObject({
      event: 'dashboard',
      data: { num_responses: 0 },
    });
    await south.waitForEvents(1, 2_000);

    await submitTo(cast.a.id, 'live@north.edu');
    const [, update] = await north.waitForEvents(2, GUARD_MS);
    expect(update).toMatchObject({
      event: 'dashboard',
      data: { num_responses: 1, flagged_students: [['Live Student', 'live@north.edu']] },
    });
    expect(south.events).toHaveLength(1);

    // Each stream carries its events in order: had north's change reached south, it would come
    // before south's own update; had south's reached north, before north's next one.
    await submitTo(cast.b.id, 'live@south.edu');
    const [, southUpdate] = await south.waitForEvents(2, GUARD_MS);
    expect(southUpdate?.data.num_responses).toBe(1);
    expect(south.events).toHaveLength(2);
    await submitTo(cast.a.id, 'again@north.edu');
    const [, , northAgain] = await north.waitForEvents(3, GUARD_MS);
    expect(northAgain?.data.num_responses).toBe(2);
    expect(north.events).toHaveLength(3);
    expect(north.events.slice(0, 2).map((received) => received.data.num_responses)).toEqual([0, 1]);
  });

  it('hears submissions made through the survey endpoint', async () => {
    const north = await openStream(baseUrl, (await sessionCookieOf(cast.adminA.email)).cookie);
    await north.waitForEvents(1, 2_000);
    const { agent } = await sessionCookieOf(cast.studentA.email);
    const survey = await agent.get<{
      template_id: number;
      questions: { id: number; question_type: string }[];
    }>('/api/get-user-survey-questions/');
    const answers = Object.fromEntries(
      survey.body.questions.map((question) => [
        String(question.id),
        question.question_type === 'text' ? 'ok' : '2',
      ]),
    );
    expect(
      (await agent.post('/api/survey/', { survey_template_id: survey.body.template_id, answers })).status,
    ).toBe(200);
    const [, update] = await north.waitForEvents(2, GUARD_MS);
    expect(update?.data.num_responses).toBe(1);
  });

  it('folds a burst of submissions into few events that end on the final numbers', async () => {
    const north = await openStream(baseUrl, (await sessionCookieOf(cast.adminA.email)).cookie);
    await north.waitForEvents(1, 2_000);
    for (let index = 0; index < 20; index += 1) await submitTo(cast.a.id, `burst${index}@north.edu`);
    await north.waitUntil((events) => events.at(-1)?.data.num_responses === 20, GUARD_MS);
    expect(north.events.at(-1)?.data.num_responses).toBe(20);
    expect(north.events.length).toBeLessThan(20);
  });

  it('frees a stream when its client leaves, and caps streams per admin', async () => {
    const { cookie } = await sessionCookieOf(cast.adminA.email);
    for (let round = 0; round < 2; round += 1) {
      const streams = await Promise.all(
        Array.from({ length: MAX_STREAMS_PER_USER }, () => openStream(baseUrl, cookie)),
      );
      expect(streams.map((stream) => stream.status)).toEqual(new Array(MAX_STREAMS_PER_USER).fill(200));
      const extra = await openStream(baseUrl, cookie);
      expect(extra.status).toBe(429);
      for (const stream of streams) stream.close();
      // The server notices the closed sockets and gives their slots back; the next round must fit again.
      await vi.waitFor(async () => expect(await openSlotsOf(cast.adminA.id)).toBe(0), { timeout: GUARD_MS });
    }
  });

  it('ends the stream once the admin logs out', async () => {
    const { agent, cookie } = await sessionCookieOf(cast.adminA.email);
    const north = await openStream(baseUrl, cookie);
    await north.waitForEvents(1, 2_000);
    expect((await agent.post('/api/logout/')).status).toBe(200);
    await submitTo(cast.a.id, 'after-logout@north.edu');
    expect(await north.waitForEnd(2_000)).toBe(true);
    expect(north.events).toHaveLength(1);
  });

  it('refuses students and lets app.close() end open streams instead of hanging', async () => {
    const student = await openStream(baseUrl, (await sessionCookieOf(cast.studentA.email)).cookie);
    expect(student.status).toBe(403);
    const north = await openStream(baseUrl, (await sessionCookieOf(cast.adminA.email)).cookie);
    await north.waitForEvents(1, 2_000);
    // Resolving at all is the point: an open stream never finishes by itself.
    await context.app.close();
    expect(await north.waitForEnd(GUARD_MS)).toBe(true);
  });

  // Several app instances share events only through PostgreSQL; SQLite runs in one process.
  if (dialect === 'postgres') {
    it('reaches admins connected to another app instance on the same database', async () => {
      const otherDb = context.openAnother?.();
      if (!otherDb) throw new Error('A PostgreSQL test database opens a second pool');
      const other = await buildApp({
        db: otherDb,
        config: context.config,
        secret: TEST_SECRET,
        webRoot: '/nonexistent-web-root',
      });
      try {
        await other.listen({ port: 0, host: '127.0.0.1' });
        const otherUrl = `http://127.0.0.1:${(other.server.address() as AddressInfo).port}`;
        const north = await openStream(otherUrl, (await sessionCookieOf(cast.adminA.email)).cookie);
        await north.waitForEvents(1, 2_000);
        await submitTo(cast.a.id, 'elsewhere@north.edu');
        await north.waitForEvents(2, GUARD_MS);
        expect(north.events[1]?.data.num_responses).toBe(1);
      } finally {
        for (const client of clients.splice(0)) client.close();
        await other.close();
        await otherDb.close();
      }
    });
  }
});
