/**
 * Every endpoint x {anonymous, student of A (signed in with a password, and another through
 * single sign-on), admin, counsellor and viewer of A, admin of B, superuser, admin of A signed in
 * with a password and no second factor yet}, aimed at A's data
 * and, for routes that take ids or links, at B's: the expected status, no other institution's
 * data in any response (and no student's name or email to a viewer), and nothing changed by a
 * refusal or by a read. An allowed write leaves the other institution exactly as it was.
 */

import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ErrorResponse } from '../../src/common/schemas/common';
import type { TestContext } from '../helpers/app';
import { TEST_DIALECTS } from '../helpers/databases';
import { ACCESS_MATRIX, type AccessEntry, buildRequest, type Cell, cellsOf } from './support/endpoints';
import {
  appWithWorld,
  institutionSlice,
  type Res,
  readWhenChanged,
  send,
  snapshot,
  type World,
} from './support/harness';
import { discoverApiRoutes, entryOf } from './support/routes';

/** Every route the app registers, recorded as it registers them. */
const ROUTES = await discoverApiRoutes();

/**
 * Strings of an institution the actor does not belong to that must never reach it: private
 * answers, names and emails, and link tokens (unless the request itself carried the link). A
 * viewer sees numbers only (design section 9): not even its own institution's students.
 */
function forbiddenFor(world: World, cell: Cell, requestText: string): string[] {
  const own = world.actors[cell.actor].institution;
  const ownStudents = cell.actor === 'viewerA' ? world.A.secrets : [];
  return [world.A, world.B]
    .filter((inst) => inst.key !== own)
    .flatMap((inst) => [...inst.secrets, inst.hashLink, inst.spareHashLink])
    .concat(ownStudents)
    .filter((value) => !requestText.includes(value));
}

function expectErrorBody(response: Res) {
  expect(ErrorResponse.safeParse(response.json).success, 'matches the shared ErrorResponse').toBe(true);
  expect(response.json).toEqual({
    success: false,
    code: expect.any(String),
    message: expect.stringMatching(/\S/),
    ...(response.json && typeof response.json === 'object' && 'requires_auth' in response.json
      ? { requires_auth: true }
      : {}),
    // Staff without a second factor are told which step is theirs, and only they are.
    ...(response.json && typeof response.json === 'object' && 'second_factor' in response.json
      ? { second_factor: expect.stringMatching(/^(enrol|verify)$/) }
      : {}),
  });
  const body = response.json as { code?: string; second_factor?: string };
  expect(body.code === 'SECOND_FACTOR_REQUIRED', 'second_factor goes with SECOND_FACTOR_REQUIRED').toBe(
    body.second_factor !== undefined,
  );
}

let cellsRun = 0;

describe.each(TEST_DIALECTS)('access matrix on %s', (dialect) => {
  let ctx: TestContext;
  let world: World;

  // Each endpoint on a database of its own: the refusal checks compare whole tables, and on one
  // shared database every endpoint's world made each later comparison larger.
  beforeEach(async () => {
    ({ ctx, world } = await appWithWorld(dialect));
  });

  afterEach(async () => {
    await ctx.close();
  });

  afterAll(() => {
    console.log(`access matrix on ${dialect}: ${cellsRun} cells checked`);
    cellsRun = 0;
  });

  for (const route of ROUTES) {
    it(route, async () => {
      const entry = entryOf<AccessEntry>(ACCESS_MATRIX, route, 'access matrix');
      const cells = cellsOf(entry);
      const databaseNow = readWhenChanged(ctx.db, () => snapshot(ctx.db));
      const sliceNow = {
        A: readWhenChanged(ctx.db, () => institutionSlice(ctx.db, world.A.id)),
        B: readWhenChanged(ctx.db, () => institutionSlice(ctx.db, world.B.id)),
      };
      const sliceOf = (inst: { key: 'A' | 'B' }) => sliceNow[inst.key]();
      // Refusals first: each must leave the database exactly as it found it.
      const ordered = [
        ...cells.filter((cell) => cell.status >= 400),
        ...cells.filter((cell) => cell.status < 400),
      ];
      let counter = 0;
      for (const cell of ordered) {
        counter += 1;
        const label = `${route} as ${cell.actor} on ${cell.target}'s data${cell.why ? ` (${cell.why})` : ''}`;
        const request = buildRequest(route, {
          world,
          actor: cell.actor,
          target: cell.target,
          unique: `${world.tag}-${counter}`,
        });
        const reads = request.method === 'GET';
        const whole = cell.status >= 400 || reads ? await databaseNow() : null;
        // A write may change the target's data (routes with ids) or the actor's own (the rest);
        // every other institution must not move.
        const writer = entry.B ? cell.target : world.actors[cell.actor].institution;
        const others = [world.A, world.B].filter((inst) => inst.key !== writer);
        const slices = whole ? [] : await Promise.all(others.map(sliceOf));

        const response = await send(ctx.app, world.actors[cell.actor], request);

        expect(response.status, `${label}: ${response.text.slice(0, 300)}`).toBe(cell.status);
        if (cell.status >= 400) expectErrorBody(response);
        // Where a signed-in admin is let in, the one without a second factor is refused for that alone.
        const completeAdmin = (cell.target === 'B' ? entry.B : entry.A)?.adminA;
        if (cell.actor === 'pendingAdminA' && cell.status === 403 && completeAdmin !== 403)
          expect((response.json as { code?: string }).code, label).toBe('SECOND_FACTOR_REQUIRED');
        const requestText = `${request.url} ${JSON.stringify(request.body ?? '')} ${request.raw ?? ''}`;
        for (const secret of forbiddenFor(world, cell, requestText)) {
          expect(response.text.includes(secret), `${label} leaked "${secret}"`).toBe(false);
        }
        if (whole) expect(await databaseNow(), `${label} changed the database`).toEqual(whole);
        for (const [index, inst] of others.entries()) {
          if (whole) break;
          expect(await sliceOf(inst), `${label} touched ${inst.key}'s data`).toEqual(slices[index]);
        }
        cellsRun += 1;
      }
    });
  }
});
