/**
 * Property-based: every endpoint, sent its valid request broken in one to three hostile ways
 * (support/hostile.ts) by someone allowed to use it. Whatever arrives, the answer is never a
 * 5xx; a 4xx is `{ success: false, code, message }` with a code from the shared list and a message; a refused request leaves every
 * table as it was; no other institution's data comes back; and nothing pollutes prototypes.
 *
 * FUZZ_RUNS sets the cases per endpoint (default 60 in CI, 20 elsewhere: see propertyRuns). A
 * failure prints fast-check's seed and path; FUZZ_SEED=<seed> replays it.
 */
import fc from 'fast-check';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ErrorResponse } from '../../src/common/schemas/common';
import type { TestContext } from '../helpers/app';
import { TEST_DIALECTS } from '../helpers/databases';
import { fewerPropertyRunsThanCi, propertyRuns } from '../helpers/property-runs';
import { buildRequest, FUZZ_TABLE, type FuzzEntry } from './support/endpoints';
import {
  appWithWorld,
  fingerprint,
  foreignSecrets,
  institutionSlice,
  readWhenChanged,
  send,
  type World,
} from './support/harness';
import { applyMutations, mutationsFor } from './support/hostile';
import { discoverApiRoutes, entryOf } from './support/routes';

/** Every route the app registers, recorded as it registers them. */
const ROUTES = await discoverApiRoutes();

const RUNS = process.env.FUZZ_RUNS ? Number(process.env.FUZZ_RUNS) : propertyRuns(60);
const SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : undefined;

/**
 * Each endpoint's property takes RUNS requests, each with a fingerprint of the whole database
 * before and after. Every endpoint gets a database of its own, so that cost stays the same from the
 * first endpoint to the last (on one shared database, each endpoint's world made every later
 * fingerprint larger: 0.7 s for the first endpoint, 14 s for the last). The limit only stops a hung
 * endpoint on a loaded machine.
 */
const ENDPOINT_TIMEOUT_MS = 120_000;

const prototypeNames = () => Object.getOwnPropertyNames(Object.prototype).sort().join(',');

describe.each(TEST_DIALECTS)('bad input on %s', (dialect) => {
  let ctx: TestContext;
  const statuses = new Map<number, number>();
  let cases = 0;

  let world: World;

  beforeEach(async () => {
    ({ ctx, world } = await appWithWorld(dialect));
  });

  afterEach(async () => {
    await ctx.close();
  });

  afterAll(() => {
    const byStatus = [...statuses].sort(([a], [b]) => a - b).map(([status, count]) => `${status}: ${count}`);
    console.log(
      `bad input on ${dialect}: ${cases} hostile requests over ${Object.keys(FUZZ_TABLE).length} endpoints (${byStatus.join(', ')}), ${RUNS} per endpoint${fewerPropertyRunsThanCi && !process.env.FUZZ_RUNS ? ' (CI tries 60: CI=true or PROPERTY_RUNS=full)' : ''}`,
    );
  });

  for (const route of ROUTES) {
    it(
      route,
      async () => {
        const entry = entryOf<FuzzEntry>(FUZZ_TABLE, route, 'fuzz table');
        const actor = world.actors[entry.actor];
        const secrets = foreignSecrets(world, entry.actor);
        const prototypeBefore = prototypeNames();
        let run = 0;
        const base = () => {
          run += 1;
          return buildRequest(route, {
            world,
            actor: entry.actor,
            target: entry.target,
            unique: `${world.tag}-f${run}`,
          });
        };

        const databaseNow = readWhenChanged(ctx.db, () => fingerprint(ctx.db, entry.mayChange));
        const otherInstitutionNow = readWhenChanged(ctx.db, () => institutionSlice(ctx.db, world.B.id));
        await fc.assert(
          fc.asyncProperty(mutationsFor(route, base()), async (mutations) => {
            const request = applyMutations(route, base(), mutations);
            const label = `${request.method} ${request.url.slice(0, 200)} ${String(request.raw ?? '').slice(0, 200)}`;
            const before = await databaseNow();
            const unsafe = request.method !== 'GET';
            const otherBefore = unsafe ? await otherInstitutionNow() : null;
            const response = await send(ctx.app, actor, request);
            cases += 1;
            statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);

            expect(response.status, `${label} -> ${response.text.slice(0, 300)}`).toBeLessThan(500);
            if (response.status >= 400) {
              // The contact form's own refusal is a page for the browser that posted it; a body
              // the parsers refuse before it gets there is answered in JSON like everywhere else.
              const htmlForm = String(response.headers['content-type']).includes('text/html');
              if (htmlForm)
                expect(route, 'an HTML error page outside the contact form').toBe('POST /api/contact/');
              if (htmlForm) {
                expect(String(response.headers['content-type'])).toContain('text/html');
                expect(response.text).toContain('Please check the form');
              } else {
                expect(response.json, `${label} -> ${response.text.slice(0, 300)}`).toMatchObject({
                  success: false,
                  message: expect.stringMatching(/\S/),
                });
                expect(
                  ErrorResponse.safeParse(response.json).success,
                  `${label} -> a body without a valid code: ${response.text.slice(0, 300)}`,
                ).toBe(true);
                expect(
                  Object.keys(response.json as object).every((key) =>
                    ['success', 'code', 'message', 'requires_auth'].includes(key),
                  ),
                ).toBe(true);
              }
              expect(await databaseNow(), `${label} was refused but changed the database`).toEqual(before);
            }
            if (otherBefore) {
              expect(await otherInstitutionNow(), `${label} touched the other institution`).toEqual(
                otherBefore,
              );
            }
            for (const secret of secrets)
              expect(response.text.includes(secret), `${label} leaked ${secret}`).toBe(false);
            expect(({} as Record<string, unknown>).polluted, 'Object.prototype polluted').toBeUndefined();
            expect(prototypeNames(), 'Object.prototype changed').toBe(prototypeBefore);
          }),
          { numRuns: RUNS, ...(SEED === undefined ? {} : { seed: SEED }) },
        );
      },
      ENDPOINT_TIMEOUT_MS,
    );
  }
});
