/**
 * Every route whose path or query parameter is named like a credential (a token, a hash, a code,
 * a secret, an OAuth state) declares it in `config.secretParams`, which the request log redacts
 * (src/server/lib/logging.ts). Pages included: a link's address is as secret on the page as in
 * the API.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../helpers/app';
import { type RegisteredRoute, routeRecorder } from './support/routes';

const SECRET_NAME = /token|hash|code|secret|password|^state$/i;

describe('secret route parameters', () => {
  let ctx: TestContext;
  let routes: readonly RegisteredRoute[];

  beforeAll(async () => {
    const recorder = routeRecorder();
    ctx = await createTestApp('sqlite', {}, { onRoute: recorder.onRoute });
    routes = recorder.allRoutes();
  });
  afterAll(async () => {
    await ctx.close();
  });

  it('are declared by every route that has one, in its path or its query', () => {
    const undeclared: string[] = [];
    let secretCount = 0;
    for (const route of routes) {
      const names = [...route.pathParams, ...route.queryParams].filter((name) => SECRET_NAME.test(name));
      secretCount += names.length;
      for (const name of names.filter((name) => !route.secretParams.includes(name)))
        undeclared.push(`${route.method} ${route.url}: ${name}`);
    }
    expect(undeclared).toEqual([]);
    // The walk saw the link, invitation and sign-in routes, so it cannot pass on an empty table.
    expect(secretCount).toBeGreaterThanOrEqual(10);
  });

  it('declare only parameters the route has', () => {
    const unknown = routes.flatMap((route) =>
      route.secretParams
        .filter((name) => ![...route.pathParams, ...route.queryParams].includes(name))
        .map((name) => `${route.method} ${route.url}: ${name}`),
    );
    expect(unknown).toEqual([]);
  });
});
