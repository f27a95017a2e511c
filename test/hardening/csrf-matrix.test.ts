/**
 * Every unsafe endpoint, forged on behalf of someone it would succeed for: without the token,
 * with a wrong token, with another session's token (and that session's CSRF secret cookie), from
 * a foreign or a null Origin, and through a percent-encoded path: 403 and not one row changed.
 * The same request with the real token then succeeds, so the refusals are the guard's doing.
 */
import { afterAll, describe, expect, it } from 'vitest';
import type { TestContext } from '../helpers/app';
import { TEST_DIALECTS } from '../helpers/databases';
import { buildRequest, CSRF_MATRIX, type CsrfEntry } from './support/endpoints';
import {
  type Actor,
  actorFor,
  appWithWorld,
  type Req,
  readWhenChanged,
  type SendOptions,
  send,
  snapshot,
  type World,
} from './support/harness';
import { discoverApiRoutes, entryOf, isUnsafe, type RouteKey } from './support/routes';

/** Every route the app registers, recorded as it registers them. */
const ROUTES = await discoverApiRoutes();

interface Attack {
  name: string;
  /** Whether the CSRF token is what stops it (exempt routes then expect their control status). */
  tokenOnly: boolean;
  forge(context: { world: World; victim: Actor; other: Actor; request: Req }): {
    request: Req;
    options: SendOptions;
  };
}

/** "/api/login/" as "/%61pi/login/": the same route to the router, a different string to naive checks. */
const encodedPath = (url: string) => url.replace(/^\/api\//, '/%61pi/');

const ATTACKS: Attack[] = [
  { name: 'no token', tokenOnly: true, forge: ({ request }) => ({ request, options: { csrf: null } }) },
  {
    name: 'wrong token',
    tokenOnly: true,
    forge: ({ victim, request }) => {
      const token = victim.csrf;
      // Same shape and length, last characters changed.
      const wrong = `${token.slice(0, -4)}${token.endsWith('AAAA') ? 'BBBB' : 'AAAA'}`;
      return { request, options: { csrf: wrong } };
    },
  },
  {
    name: "another session's token",
    tokenOnly: true,
    forge: ({ other, request }) => ({
      request,
      // The other session's token together with its CSRF secret cookie: only the session binding can refuse it.
      options: { csrf: other.csrf, cookies: { _csrf: other.cookies._csrf as string } },
    }),
  },
  {
    name: 'foreign Origin',
    tokenOnly: false,
    forge: ({ request }) => ({ request, options: { origin: 'https://evil.example' } }),
  },
  {
    name: 'Origin: null',
    tokenOnly: false,
    forge: ({ request }) => ({ request, options: { origin: 'null' } }),
  },
  {
    name: 'no token, percent-encoded path',
    tokenOnly: true,
    forge: ({ request }) => ({
      request: { ...request, url: encodedPath(request.url) },
      options: { csrf: null },
    }),
  },
  {
    name: 'foreign Origin, percent-encoded path',
    tokenOnly: false,
    forge: ({ request }) => ({
      request: { ...request, url: encodedPath(request.url) },
      options: { origin: 'https://evil.example' },
    }),
  },
];

let cellsRun = 0;

describe.each(TEST_DIALECTS)('CSRF matrix on %s', (dialect) => {
  afterAll(() => {
    console.log(
      `CSRF matrix on ${dialect}: ${cellsRun} forged requests refused or checked, plus one control per route`,
    );
    cellsRun = 0;
  });

  for (const route of ROUTES.filter(isUnsafe)) {
    it(route, async () => {
      // Each route on a fresh database with a world of its own: what it costs does not grow with
      // the routes before it, and the database holds only what this route's attacks could change.
      const { ctx, world } = await appWithWorld(dialect);
      try {
        await forgeEveryAttack(ctx, world, route);
      } finally {
        await ctx.close();
      }
    });
  }
});

async function forgeEveryAttack(ctx: TestContext, world: World, route: RouteKey) {
  const entry = entryOf<CsrfEntry>(CSRF_MATRIX, route, 'CSRF matrix');
  const victim = world.actors[entry.actor];
  // Another session: the same user's second session, or for a visitor a logged-in one.
  const other =
    victim.userId === null
      ? world.actors.studentB
      : await actorFor(
          ctx.app,
          ctx.db,
          victim.name,
          victim.institution,
          {
            id: victim.userId,
            email: victim.email as string,
          },
          victim.signInMethod,
        );
  let counter = 0;
  const build = () => {
    counter += 1;
    return buildRequest(route, {
      world,
      actor: entry.actor,
      target: entry.target,
      unique: `${world.tag}-${counter}`,
    });
  };

  // Every refused attack must leave the database as it was before the first one.
  const databaseNow = readWhenChanged(ctx.db, () => snapshot(ctx.db));
  const before = await databaseNow();
  for (const attack of ATTACKS) {
    const label = `${route} forged with ${attack.name}`;
    const { request, options } = attack.forge({ world, victim, other, request: build() });
    const response = await send(ctx.app, victim, request, options);
    if (entry.tokenExempt && attack.tokenOnly) {
      // Documented exemption (see CSRF_MATRIX): the Origin check is its protection.
      expect(response.status, `${label}: ${response.text.slice(0, 200)}`).toBe(entry.control);
      // The exempt request succeeded and may have changed rows: what follows compares with now.
      Object.assign(before, await databaseNow());
    } else {
      expect(response.status, `${label}: ${response.text.slice(0, 200)}`).toBe(403);
      expect(response.json, label).toEqual({
        success: false,
        // A forged token fails the CSRF check; a foreign Origin is refused before it.
        code: expect.stringMatching(/^(CSRF_FAILED|FORBIDDEN)$/),
        message: expect.stringMatching(/\S/),
      });
      expect(await databaseNow(), `${label} changed the database`).toEqual(before);
    }
    cellsRun += 1;
  }

  const control = await send(ctx.app, victim, build());
  expect(control.status, `${route} with the real token: ${control.text.slice(0, 200)}`).toBe(entry.control);
}
