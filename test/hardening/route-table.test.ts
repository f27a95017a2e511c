/**
 * The app's registered routes are the truth: every `/api/` route must appear in each hardening
 * table, so a new endpoint cannot slip past the access matrix, the CSRF matrix or the fuzzing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../helpers/app';
import { ACCESS_MATRIX, buildRequest, CSRF_MATRIX, cellsOf, FUZZ_TABLE, REQUESTS } from './support/endpoints';
import { createWorld, type Target } from './support/harness';
import { isUnsafe, type RouteKey, routeRecorder } from './support/routes';

describe('the route table', () => {
  let ctx: TestContext;
  let routes: RouteKey[];

  beforeAll(async () => {
    const recorder = routeRecorder();
    ctx = await createTestApp('sqlite', {}, { onRoute: recorder.onRoute });
    routes = recorder.apiRoutes(ctx.app);
  });

  afterAll(async () => {
    await ctx.close();
  });

  it('is read from the app, methods and parameters included', () => {
    // A few routes of every shape, so a broken recording cannot pass as an empty table.
    expect(routes).toEqual(
      expect.arrayContaining([
        'GET /api/csrf/',
        'POST /api/survey/link/:hashLink/',
        'DELETE /api/survey-templates/:id/questions/',
        'GET /api/autosave/load/:templateId',
        'GET /api/docs/static/*',
      ]),
    );
    expect(routes.some((route) => route.startsWith('HEAD '))).toBe(false);
    const cells = Object.values(ACCESS_MATRIX).reduce((sum, entry) => sum + cellsOf(entry).length, 0);
    console.log(
      `route table: ${routes.length} /api/ endpoints, ${routes.filter(isUnsafe).length} of them unsafe; ` +
        `access matrix ${cells} cells per dialect`,
    );
  });

  const tables = {
    'request catalogue': REQUESTS,
    'access matrix': ACCESS_MATRIX,
    'fuzz table': FUZZ_TABLE,
  } as const;

  for (const [name, table] of Object.entries(tables)) {
    it(`leaves no route out of the ${name}, and lists no route the app lacks`, () => {
      expect(routes.filter((route) => !(route in table))).toEqual([]);
      expect(Object.keys(table).filter((route) => !routes.includes(route as RouteKey))).toEqual([]);
    });
  }

  it("builds, for every route, a request that the route's own pattern matches", async () => {
    const world = await createWorld(ctx.app, ctx.db);
    const targets: Target[] = ['A', 'B', 'A+B'];
    for (const route of routes) {
      const [method, pattern = ''] = route.split(' ');
      const expression = new RegExp(
        `^${pattern.replace(/[.]/g, '\\.').replace(/:\w+/g, '[^/]+').replace(/\*/g, '.+')}$`,
      );
      for (const target of targets) {
        const request = buildRequest(route, {
          world,
          actor: 'adminA',
          target,
          unique: `${world.tag}-${target}`,
        });
        expect(`${request.method} ${request.url.split('?')[0]}`, route).toMatch(
          new RegExp(`^${method} ${expression.source.slice(1)}`),
        );
      }
    }
  });

  it('leaves no unsafe route out of the CSRF matrix, and lists only unsafe routes there', () => {
    expect(routes.filter((route) => isUnsafe(route) && !(route in CSRF_MATRIX))).toEqual([]);
    expect(
      Object.keys(CSRF_MATRIX).filter(
        (route) => !routes.includes(route as RouteKey) || !isUnsafe(route as RouteKey),
      ),
    ).toEqual([]);
  });
});
