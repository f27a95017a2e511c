import inject from 'light-my-request';
import { expect, it } from 'vitest';
import { buildTestApp } from '../../../test/helpers/app';
import { createTestDatabase } from '../../../test/helpers/databases';

it('answers a request that reaches a closing instance with SHUTTING_DOWN and Retry-After', async () => {
  const { db, drop } = await createTestDatabase('sqlite');
  const app = await buildTestApp(db);
  // The shutdown waits here (as it waits for a relay or a job) while a request comes in.
  let closingBegan!: () => void;
  const began = new Promise<void>((resolve) => {
    closingBegan = resolve;
  });
  let finishClosing!: () => void;
  const held = new Promise<void>((resolve) => {
    finishClosing = resolve;
  });
  app.addHook('preClose', async () => {
    closingBegan();
    await held;
  });
  await app.ready();
  const closed = app.close();
  await began;

  // On a connection that was already open: Fastify's own handler, as the server calls it.
  const response = await inject(app.routing, { method: 'GET', url: '/api/csrf/' });
  finishClosing();
  await closed;
  await drop();

  expect(response.statusCode).toBe(503);
  expect(response.headers['retry-after']).toBe('2');
  expect(response.headers.connection).toBe('close');
  expect(response.json()).toEqual({
    success: false,
    code: 'SHUTTING_DOWN',
    message: 'The service is restarting. Please try again in a few seconds.',
  });
});
