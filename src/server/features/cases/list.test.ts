import type { Kysely } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, TestAgent, type TestContext } from '../../../../test/helpers/app';
import { parseCsv } from '../../../../test/helpers/csv';
import { TEST_DIALECTS } from '../../../../test/helpers/databases';
import { expectError } from '../../../../test/helpers/errors';
import { makeTwoInstitutions, makeUser } from '../../../../test/helpers/factories';
import type { CaseListResponse } from '../../../common/schemas/cases';
import { DEFAULT_LIMITS } from '../../config';
import type { CaseStatus, Database } from '../../db/types';
import { TOO_MANY_REQUESTS_MESSAGE } from '../../lib/errors';
import { HOUR } from '../../lib/time';

const T0 = Date.UTC(2026, 2, 2, 9, 0);

interface Seed {
  name: string;
  email: string;
  tier: 'urgent' | 'elevated';
  status: CaseStatus;
  /** Hours after T0 that the case opened. */
  openedAfter: number;
  /** Hours after opening that it is due. */
  dueAfter: number;
  assignedTo?: number;
}

/** Cases written straight to the tables: the list is under test here, not how cases open. */
async function seedCase(db: Kysely<Database>, institutionId: number, seed: Seed) {
  const respondent = await db
    .insertInto('respondents')
    .values({
      institution_id: institutionId,
      email: seed.email,
      name: seed.name,
      user_id: null,
      created_at: T0,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const openedAt = T0 + seed.openedAfter * HOUR;
  const resolved = seed.status === 'resolved';
  const acknowledged = seed.status !== 'new';
  const row = await db
    .insertInto('cases')
    .values({
      institution_id: institutionId,
      respondent_id: respondent.id,
      open_respondent_id: resolved ? null : respondent.id,
      tier: seed.tier,
      status: seed.status,
      verified_at: openedAt,
      first_submitted_at: openedAt,
      opened_at: openedAt,
      acknowledge_by: openedAt + seed.dueAfter * HOUR,
      next_escalation_at: null,
      acknowledged_at: acknowledged ? openedAt + HOUR / 2 : null,
      acknowledged_by: null,
      assigned_to: seed.assignedTo ?? null,
      resolved_at: resolved ? openedAt + HOUR : null,
      outcome: resolved ? 'connected_to_counselling' : null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

describe.each(TEST_DIALECTS)('the case list on %s', (dialect) => {
  let ctx: TestContext;
  let counsellor: TestAgent;
  let counsellorId: number;

  beforeEach(async () => {
    ctx = await createTestApp(dialect, {}, { jobs: { poll: false } });
    const db = ctx.db.kysely;
    const cast = await makeTwoInstitutions(db);
    const casey = await makeUser(db, {
      email: 'casey@north.edu',
      role: 'counsellor',
      institutionId: cast.a.id,
      name: 'Casey Counsellor',
    });
    counsellorId = casey.id;
    const north: Seed[] = [
      {
        name: 'Nguyen, Linh',
        email: 'linh.nguyen@north.edu',
        tier: 'urgent',
        status: 'new',
        openedAfter: 3,
        dueAfter: 1,
      },
      {
        name: 'Okafor, Ada',
        email: 'ada@north.edu',
        tier: 'elevated',
        status: 'acknowledged',
        openedAfter: 1,
        dueAfter: 48,
        assignedTo: casey.id,
      },
      {
        name: 'Berg, Jon',
        email: 'jon.berg@north.edu',
        tier: 'elevated',
        status: 'in_progress',
        openedAfter: 2,
        dueAfter: 48,
      },
      {
        name: 'Abbott, Mia',
        email: 'mia@north.edu',
        tier: 'urgent',
        status: 'resolved',
        openedAfter: 0,
        dueAfter: 1,
      },
      {
        name: 'Lindqvist, 100%_Sure',
        email: 'sure@north.edu',
        tier: 'elevated',
        status: 'new',
        openedAfter: 4,
        dueAfter: 48,
      },
    ];
    for (const seed of north) await seedCase(db, cast.a.id, seed);
    // Another institution's student whose name matches every search below: never listed here.
    await seedCase(db, cast.b.id, {
      name: 'Nguyen, Lin',
      email: 'lin.nguyen@south.edu',
      tier: 'urgent',
      status: 'new',
      openedAfter: 0,
      dueAfter: 1,
    });
    counsellor = new TestAgent(ctx.app);
    await counsellor.signInDirectly(ctx.db, casey.email);
  });
  afterEach(async () => {
    await ctx.close();
  });

  const list = async (query: string) => {
    const response = await counsellor.get<CaseListResponse>(`/api/cases/?${query}`);
    expect(response.status).toBe(200);
    return response.body;
  };
  const names = (body: CaseListResponse) => body.cases.map((item) => item.student_name);

  it('searches by name or email within the institution, case and wildcards taken literally', async () => {
    expect(names(await list('status=all&q=NGUYEN'))).toEqual(['Nguyen, Linh']);
    expect(names(await list('status=all&q=jon.berg@'))).toEqual(['Berg, Jon']);
    expect(names(await list('status=all&q=100%25_'))).toEqual(['Lindqvist, 100%_Sure']);
    expect(names(await list('status=all&q=%25'))).toEqual(['Lindqvist, 100%_Sure']);
    const none = await list('status=all&q=nobody-by-this-name');
    expect(none).toMatchObject({ cases: [], total: 0 });
  });

  it('sorts by each column both ways', async () => {
    expect(names(await list('status=all&sort=student'))).toEqual([
      'Abbott, Mia',
      'Berg, Jon',
      'Lindqvist, 100%_Sure',
      'Nguyen, Linh',
      'Okafor, Ada',
    ]);
    expect(names(await list('status=all&sort=student&dir=desc'))[0]).toBe('Okafor, Ada');
    expect(names(await list('status=all&sort=opened&dir=desc'))).toEqual([
      'Lindqvist, 100%_Sure',
      'Nguyen, Linh',
      'Berg, Jon',
      'Okafor, Ada',
      'Abbott, Mia',
    ]);
    expect(names(await list('status=all&sort=deadline'))).toEqual([
      'Abbott, Mia',
      'Nguyen, Linh',
      'Okafor, Ada',
      'Berg, Jon',
      'Lindqvist, 100%_Sure',
    ]);
    const byTier = (await list('status=all&sort=tier')).cases.map((item) => item.tier);
    expect(byTier).toEqual(['urgent', 'urgent', 'elevated', 'elevated', 'elevated']);
    const byStatus = (await list('status=all&sort=status&dir=desc')).cases.map((item) => item.status);
    expect(byStatus).toEqual(['resolved', 'in_progress', 'acknowledged', 'new', 'new']);
  });

  it('pages through the filtered list and says how many match in all', async () => {
    const first = await list('status=all&sort=student&page_size=2');
    expect(first).toMatchObject({ total: 5, page: 1, page_size: 2 });
    expect(names(first)).toEqual(['Abbott, Mia', 'Berg, Jon']);
    const third = await list('status=all&sort=student&page_size=2&page=3');
    expect(names(third)).toEqual(['Okafor, Ada']);
    expect((await list('status=all&page=9')).cases).toEqual([]);
  });

  it('filters by state, tier and assignee on the server', async () => {
    expect(names(await list('status=open&sort=student'))).toEqual([
      'Berg, Jon',
      'Lindqvist, 100%_Sure',
      'Nguyen, Linh',
      'Okafor, Ada',
    ]);
    expect(names(await list('status=in_progress'))).toEqual(['Berg, Jon']);
    expect(names(await list('status=all&tier=urgent&sort=student'))).toEqual(['Abbott, Mia', 'Nguyen, Linh']);
    expect(names(await list(`status=all&assigned_to=${counsellorId}`))).toEqual(['Okafor, Ada']);
    expect((await list('status=all&assigned_to=nobody')).total).toBe(4);
  });

  it('refuses bad sort keys, page sizes and filters with a message', async () => {
    for (const [query, message] of [
      ['sort=password_hash', 'sort must be one of priority, student, tier, status, opened, deadline'],
      ['sort=student&dir=sideways', 'dir must be asc or desc'],
      ['page_size=1000', 'page_size must be at most 200'],
      ['page_size=0', 'page_size must be at least 1'],
      ['page_size=ten', 'page_size must be a number'],
      ['page=0', 'page must be at least 1'],
      ['tier=monitor', 'tier must be all, urgent or elevated'],
      ['assigned_to=1%20or%201', 'assigned_to must be anyone, nobody or a staff id'],
      [`q=${'x'.repeat(201)}`, 'q is too long'],
    ] as const) {
      expectError(await counsellor.get(`/api/cases/?${query}`), 400, 'VALIDATION_FAILED', message);
    }
  });

  it('exports the list as filtered and sorted, every page, and records the export', async () => {
    const response = await counsellor.get<string>(
      '/api/cases/export.csv?status=all&tier=elevated&sort=student',
    );
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toMatch(
      /^attachment; filename="cases-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    const [header, ...rows] = parseCsv(response.body);
    expect(header?.slice(0, 3)).toEqual(['case_id', 'student_name', 'school_email']);
    expect(rows.map((row) => row[1])).toEqual(['Berg, Jon', 'Lindqvist, 100%_Sure', 'Okafor, Ada']);
    expect(rows.map((row) => row[8])).toEqual(
      expect.arrayContaining([new Date(T0 + 2 * HOUR).toISOString()]),
    );
    const audit = await ctx.db.kysely
      .selectFrom('audit_log')
      .select(['action', 'detail'])
      .where('actor_user_id', '=', counsellorId)
      .where('action', '=', 'case.export')
      .execute();
    expect(audit).toHaveLength(1);
    expect(JSON.parse(audit[0]?.detail ?? '{}')).toMatchObject({
      status: 'all',
      tier: 'elevated',
      sort: 'student',
    });
    expectError(
      await counsellor.get('/api/cases/export.csv?sort=nope'),
      400,
      'VALIDATION_FAILED',
      'sort must be one of priority, student, tier, status, opened, deadline',
    );
  });

  it('limits exports per client like the other CSV exports', async () => {
    const max = DEFAULT_LIMITS.csvExportsPerIpPerMinute;
    for (let index = 0; index < max; index += 1) {
      expect((await counsellor.get('/api/cases/export.csv')).status).toBe(200);
    }
    expectError(
      await counsellor.get('/api/cases/export.csv'),
      429,
      'TOO_MANY_REQUESTS',
      TOO_MANY_REQUESTS_MESSAGE,
    );
  });
});
