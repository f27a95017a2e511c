/**
 * Design section 9: every read of identifiable student data, and every change staff make, writes
 * an audit row. Which routes read such data is derived from their registered response schemas
 * (the marks of common/schemas/identity.ts), not from a list: a new route that answers with a
 * student's name, email or answers is held to the rule as soon as it is registered. Each is then
 * called by every staff actor the access matrix lets in, and must have recorded the read before
 * it answered 200; a viewer, who is shown no names, must have recorded nothing.
 */
import type { RouteOptions } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { can, roleName } from '../../src/common/roles';
import { type StudentDataMark, studentData } from '../../src/common/schemas/identity';
import type { Db } from '../../src/server/db';
import type { Role } from '../../src/server/db/types';
import { createTestApp, type TestContext } from '../helpers/app';
import { TEST_DIALECTS } from '../helpers/databases';
import { ACCESS_MATRIX, buildRequest, CSRF_MATRIX, cellsOf } from './support/endpoints';
import { type ActorName, appWithWorld, send, type World } from './support/harness';
import { isUnsafe, type RouteKey, routeRecorder } from './support/routes';

type Schema = { _zod: { def: Record<string, unknown> & { type: string } } };

/** Keys that hold a student's identity or answers wherever they appear; each must be marked. */
const IDENTIFYING_KEYS = new Set(['student_name', 'school_email', 'student_email', 'answers']);

interface Finding {
  marks: StudentDataMark['carries'][];
  unmarked: string[];
}

/** Walks a zod schema: which marks it can hold, and identifying keys left unmarked. */
function inspect(schema: Schema, path: string, found: Finding, seen = new Set<Schema>()): void {
  if (!schema?._zod || seen.has(schema)) return;
  seen.add(schema);
  const mark = studentData.get(schema as never);
  if (mark) {
    found.marks.push(mark.carries);
    return;
  }
  const def = schema._zod.def;
  const walk = (child: unknown, at: string) => inspect(child as Schema, at, found, seen);
  switch (def.type) {
    case 'object':
      for (const [key, child] of Object.entries(def.shape as Record<string, Schema>)) {
        if (IDENTIFYING_KEYS.has(key) && !studentData.get(child as never))
          found.unmarked.push(`${path}.${key}`);
        walk(child, `${path}.${key}`);
      }
      return;
    case 'array':
      walk(def.element, `${path}[]`);
      return;
    case 'tuple':
      for (const [index, item] of (def.items as Schema[]).entries()) walk(item, `${path}[${index}]`);
      if (def.rest) walk(def.rest, `${path}[...]`);
      return;
    case 'union':
      for (const option of def.options as Schema[]) walk(option, path);
      return;
    case 'intersection':
      walk(def.left, path);
      walk(def.right, path);
      return;
    case 'record':
      walk(def.valueType, `${path}{}`);
      return;
    case 'pipe':
      walk(def.in, path);
      walk(def.out, path);
      return;
    case 'lazy':
      walk((def.getter as () => unknown)(), path);
      return;
    default:
      if (def.innerType) walk(def.innerType, path);
  }
}

interface RouteSchemas {
  route: RouteKey;
  finding: Finding;
}

/** Every /api/ route with what its success answers can carry, from the schemas it registered. */
async function registeredRoutes(): Promise<RouteSchemas[]> {
  const recorder = routeRecorder();
  const schemas = new Map<string, unknown>();
  const ctx = await createTestApp(
    'sqlite',
    {},
    {
      onRoute: (route: RouteOptions) => {
        recorder.onRoute(route);
        const response = (route.schema?.response ?? {}) as Record<string, unknown>;
        const success = Object.entries(response).filter(([status]) => status.startsWith('2'));
        for (const method of [route.method].flat()) {
          for (const url of [route.url, `${route.url}/`])
            schemas.set(
              `${method} ${url}`,
              success.map(([, schema]) => schema),
            );
        }
      },
    },
  );
  try {
    return recorder.apiRoutes(ctx.app).map((route) => {
      const finding: Finding = { marks: [], unmarked: [] };
      for (const schema of (schemas.get(route) as Schema[] | undefined) ?? [])
        inspect(schema, route, finding);
      return { route, finding };
    });
  } finally {
    await ctx.close();
  }
}

const ROUTES = await registeredRoutes();
const identifying = (finding: Finding) => finding.marks.some((mark) => mark !== 'own');
const READERS = ROUTES.filter(({ finding }) => identifying(finding)).map(({ route }) => route);
const STAFF_ACTORS: ActorName[] = ['adminA', 'counsellorA', 'viewerA', 'adminB'];

async function auditRows(db: Db, userId: number) {
  return db.kysely
    .selectFrom('audit_log')
    .select(['action', 'institution_id', 'actor_email', 'address'])
    .where('actor_user_id', '=', userId)
    .execute();
}

describe('routes that read identifiable student data', () => {
  it('are found from the response schemas, and every identifying field is marked', () => {
    // The dashboard's lists, its live stream and the CSV export at least: a walker that finds
    // nothing cannot pass.
    expect(READERS).toEqual(
      expect.arrayContaining([
        'GET /api/dashboard/',
        'GET /api/dashboard/flagged/',
        'GET /api/dashboard/events/',
        'GET /api/dashboard/export.csv',
      ]),
    );
    expect(ROUTES.flatMap(({ finding }) => finding.unmarked)).toEqual([]);
    console.log(`audit coverage: ${READERS.length} routes read identifiable data: ${READERS.join(', ')}`);
  });
});

describe.each(TEST_DIALECTS)('audit rows on %s', (dialect) => {
  let ctx: TestContext;
  let world: World;

  // Each route on a database of its own, holding a world of its own.
  beforeEach(async () => {
    ({ ctx, world } = await appWithWorld(dialect));
  });
  afterEach(async () => {
    await ctx.close();
  });

  for (const route of READERS) {
    it(`${route} records every read by staff who see names, before answering`, async () => {
      const entry = ACCESS_MATRIX[route];
      if (!entry) throw new Error(`${route} is not in the access matrix`);
      const cells = cellsOf(entry).filter((cell) => cell.status === 200 && STAFF_ACTORS.includes(cell.actor));
      expect(cells.length, `${route}: no staff member may read it`).toBeGreaterThan(0);
      for (const [index, cell] of cells.entries()) {
        const actor = world.actors[cell.actor];
        const userId = actor.userId as number;
        const user = await ctx.db.kysely
          .selectFrom('users')
          .select(['role', 'institution_id'])
          .where('id', '=', userId)
          .executeTakeFirstOrThrow();
        const before = (await auditRows(ctx.db, userId)).length;
        const request = buildRequest(route, {
          world,
          actor: cell.actor,
          target: cell.target,
          unique: `${world.tag}-a${index}`,
        });
        const response = await send(ctx.app, actor, request);
        expect(response.status, `${route} as ${cell.actor}`).toBe(200);
        const rows = await auditRows(ctx.db, userId);
        const added = rows.slice(before);
        if (can(roleName(user.role as Role), 'student_identities')) {
          expect(added.length, `${route} as ${cell.actor} wrote no audit row`).toBeGreaterThanOrEqual(1);
          for (const row of added) {
            expect(row).toMatchObject({ institution_id: user.institution_id, actor_email: actor.email });
            expect(row.address, `${route}: the row keeps the address`).toBeTruthy();
          }
        } else {
          expect(added, `${route} as ${cell.actor}: nothing identifiable was read`).toEqual([]);
        }
      }
    });
  }

  /**
   * Steps of a sign-in ceremony: a passkey's registration challenge, or the secret of an app that
   * is to replace the one set up, is kept for minutes and changes nothing of how the account signs
   * in; the registration or confirmation it leads to is what changes it.
   */
  const CEREMONY_STEPS: RouteKey[] = [
    'POST /api/passkeys/registration/options/',
    'POST /api/second-factor/totp/replacement/',
  ];
  // A refused control request (a forged passkey, nothing to verify) changes nothing to record.
  const staffChanges = (Object.keys(CSRF_MATRIX) as RouteKey[]).filter((route) => {
    const entry = CSRF_MATRIX[route];
    return (
      isUnsafe(route) &&
      STAFF_ACTORS.includes(entry?.actor as ActorName) &&
      (entry?.control ?? 0) < 300 &&
      !CEREMONY_STEPS.includes(route)
    );
  });

  it('covers the changes staff make', () => {
    expect(staffChanges).toEqual(
      expect.arrayContaining(['POST /api/survey-templates/', 'POST /api/staff/', 'DELETE /api/staff/:id/']),
    );
  });

  for (const route of staffChanges) {
    it(`${route} records the change`, async () => {
      const entry = CSRF_MATRIX[route];
      if (!entry) throw new Error(`${route} is not in the CSRF matrix`);
      const actor = world.actors[entry.actor];
      const before = (await auditRows(ctx.db, actor.userId as number)).length;
      const response = await send(
        ctx.app,
        actor,
        buildRequest(route, { world, actor: entry.actor, target: entry.target, unique: `${world.tag}-c` }),
      );
      expect(response.status, `${route}: ${response.text.slice(0, 200)}`).toBe(entry.control);
      const added = (await auditRows(ctx.db, actor.userId as number)).slice(before);
      // A change that answers with the case it changed also records that read, apart.
      const changes = added.filter((row) => !/\.(read|list)$/.test(row.action));
      expect(changes.length, `${route} changed something and recorded nothing`).toBe(1);
    });
  }
});
