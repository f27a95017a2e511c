/**
 * The endpoint table (src/common/endpoints) is the one declaration of the API: the app registers
 * exactly its entries, its staff entries refuse a caller without their ability before reading
 * anything the caller sent, and the OpenAPI document generated from it is valid and says, for
 * every operation, who may call it and how it fails.
 */
import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Endpoint, staffAbility } from '../../src/common/endpoints/endpoint';
import { ENDPOINTS } from '../../src/common/endpoints/index';
import { createTestApp, type TestContext } from '../helpers/app';
import { createWorld, send, type World } from './support/harness';
import { isUnsafe, type RouteKey, routeRecorder } from './support/routes';

/** The documentation's own routes (Swagger UI and its files): no entry of the table declares them. */
const DOCUMENTATION = /^[A-Z]+ \/api\/docs(\/|$)/;

const keyOf = (entry: Endpoint) => `${entry.method} ${entry.path}` as RouteKey;

interface Operation {
  security?: Record<string, string[]>[];
  responses?: Record<string, unknown>;
}

describe('the endpoint table', () => {
  let ctx: TestContext;
  let routes: RouteKey[];
  let world: World;

  beforeAll(async () => {
    const recorder = routeRecorder();
    ctx = await createTestApp('sqlite', {}, { onRoute: recorder.onRoute });
    routes = recorder.apiRoutes(ctx.app);
    world = await createWorld(ctx.app, ctx.db);
  });

  afterAll(async () => {
    await ctx.close();
  });

  it('declares each endpoint once', () => {
    const keys = ENDPOINTS.map(keyOf);
    expect(keys.filter((key, index) => keys.indexOf(key) !== index)).toEqual([]);
    expect(keys.length).toBeGreaterThan(100);
  });

  it('is what the app registers: every entry with its method and path, every /api/ route an entry', () => {
    const declared = ENDPOINTS.map(keyOf);
    expect(declared.filter((key) => !routes.includes(key))).toEqual([]);
    expect(routes.filter((route) => !DOCUMENTATION.test(route) && !declared.includes(route))).toEqual([]);
  });

  it('refuses a signed-in caller without the ability before validating its path, query or body', async () => {
    const staffEntries = ENDPOINTS.filter((entry) => staffAbility(entry.access) !== null);
    expect(staffEntries.length).toBeGreaterThan(40);
    const wrong: string[] = [];
    for (const entry of staffEntries) {
      // Nothing here is valid: not an id, a page that is no number, a field nobody expects.
      const url = `${entry.path.replace(/:\w+/g, 'not-an-id')}?page=none&unexpected=1`;
      const response = await send(ctx.app, world.actors.studentA, {
        method: entry.method,
        url,
        ...(isUnsafe(keyOf(entry)) && { raw: '42', contentType: 'application/json' }),
      });
      if (response.status !== 403) wrong.push(`${keyOf(entry)}: ${response.status}`);
    }
    expect(wrong).toEqual([]);
  });

  it('generates a valid OpenAPI document, each operation with its security and failure statuses', async () => {
    const document = ctx.app.swagger() as { paths: Record<string, Record<string, Operation>> };
    const result = await new Validator().validate(document as Parameters<Validator['validate']>[0]);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);

    const wrong: string[] = [];
    for (const entry of ENDPOINTS) {
      if (entry.hidden) continue;
      const path = entry.path.replace(/:(\w+)/g, '{$1}');
      const operation = document.paths[path]?.[entry.method.toLowerCase()];
      if (!operation) {
        wrong.push(`${keyOf(entry)}: not documented`);
        continue;
      }
      const requirements = operation.security ?? [];
      const signedIn = requirements.some((requirement) => 'session' in requirement);
      if (signedIn !== (entry.access !== 'public'))
        wrong.push(`${keyOf(entry)}: security ${JSON.stringify(requirements)}`);
      for (const status of entry.errors) {
        if (!operation.responses?.[String(status)]) wrong.push(`${keyOf(entry)}: no ${status} answer`);
      }
    }
    expect(wrong).toEqual([]);
  });
});
