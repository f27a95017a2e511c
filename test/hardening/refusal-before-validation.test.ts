/**
 * A caller who may not use a route learns nothing from it: for every route with a body schema,
 * each actor the access matrix refuses (401, 403) is refused the same way when its body is
 * malformed, rather than told what the body should have been (400). The guard runs before the
 * body is validated (`preValidation`: a staff endpoint's guard, from its access in the endpoint table).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../helpers/app';
import { TEST_DIALECTS } from '../helpers/databases';
import { ACCESS_MATRIX, buildRequest } from './support/endpoints';
import { ACTORS, createWorld, send, type World } from './support/harness';
import { entryOf, type RouteKey, routeRecorder } from './support/routes';

/** Bodies no schema of the app accepts: a bare number, and an object of nothing it expects. */
const MALFORMED = [{ raw: '42' }, { body: { unexpected: [1, 2, 3] } }];

describe.each(TEST_DIALECTS)('refusals before body validation on %s', (dialect) => {
  let ctx: TestContext;
  let routes: RouteKey[];
  let world: World;

  beforeAll(async () => {
    const recorder = routeRecorder();
    ctx = await createTestApp(dialect, {}, { onRoute: recorder.onRoute });
    routes = recorder.bodyRoutes(ctx.app);
    world = await createWorld(ctx.app, ctx.db);
  });
  afterAll(async () => {
    await ctx.close();
  });

  it('finds the routes that validate a body', () => {
    expect(routes).toEqual(expect.arrayContaining(['POST /api/staff/', 'PUT /api/institution/sso/']));
  });

  it('answers every refused caller 401 or 403 whatever its body, never 400', async () => {
    const wrong: string[] = [];
    let counter = 0;
    for (const route of routes) {
      const entry = entryOf(ACCESS_MATRIX, route, 'access matrix');
      for (const actor of ACTORS) {
        const expected = entry.A[actor];
        if (expected !== 401 && expected !== 403) continue;
        for (const malformed of MALFORMED) {
          counter += 1;
          const valid = buildRequest(route, {
            world,
            actor,
            target: 'A',
            unique: `${world.tag}-r${counter}`,
          });
          const { body: _body, raw: _raw, ...request } = valid;
          const response = await send(ctx.app, world.actors[actor], {
            ...request,
            ...malformed,
            contentType: 'application/json',
          });
          if (response.status !== expected)
            wrong.push(`${route} as ${actor}: ${response.status} instead of ${expected}`);
        }
      }
    }
    expect(counter).toBeGreaterThan(0);
    expect([...new Set(wrong)]).toEqual([]);
  });
});
