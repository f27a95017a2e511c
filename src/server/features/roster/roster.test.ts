import { Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, TestAgent, type TestContext } from '../../../../test/helpers/app';
import { notSigningIn } from '../../../../test/helpers/audit';
import { activeQuestions, addSubmission } from '../../../../test/helpers/dashboard-data';
import { TEST_DIALECTS } from '../../../../test/helpers/databases';
import { expectError } from '../../../../test/helpers/errors';
import { turnsTakenDuring } from '../../../../test/helpers/event-loop';
import { makeTwoInstitutions } from '../../../../test/helpers/factories';
import type { DashboardData } from '../../../common/schemas/dashboard';
import type { RosterImportResponse, RosterPage } from '../../../common/schemas/roster';
import { DEFAULT_LIMITS } from '../../config';
import { TOO_MANY_REQUESTS_MESSAGE } from '../../lib/errors';
import { DAY } from '../../lib/time';
import { LIMITS } from '../../limit-table';
import { EMPTY_FILE, NO_HEADER, NOT_TEXT, ROWS_PER_TURN, readRosterCsv } from './csv';
import { importRoster } from './service';

/** A registrar's export as spreadsheets write them: BOM, CRLF, quotes, commas and breaks inside quotes, blank lines. */
const REGISTRAR_FILE = [
  '\ufeffName,Email,Group',
  '"Doe, Jane",Jane.Doe@north.edu,Biology',
  '',
  '"Ann ""Annie"" Lee",ann@north.edu,"Chemistry, Year 1"',
  '"Bo',
  'Chen",bo@north.edu,',
  '   ',
  'Cy Park,cy@north.edu,Biology',
  '',
].join('\r\n');

describe.each(TEST_DIALECTS)('roster on %s', (dialect) => {
  let ctx: TestContext;
  let cast: Awaited<ReturnType<typeof makeTwoInstitutions>>;
  let admin: TestAgent;

  beforeEach(async () => {
    // Many uploads per test: the per-institution allowance has a test of its own.
    ctx = await createTestApp(dialect, { limits: { rosterImports: { max: 1_000, windowMs: 60_000 } } });
    cast = await makeTwoInstitutions(ctx.db.kysely);
    admin = new TestAgent(ctx.app);
    await admin.signInDirectly(ctx.db, cast.adminA.email);
  });
  afterEach(async () => {
    await ctx.close();
  });

  const upload = (agent: TestAgent, csv: string | Buffer, contentType = 'text/csv') =>
    agent.request<RosterImportResponse>({
      method: 'POST',
      url: '/api/roster/',
      payload: csv,
      headers: { 'content-type': contentType },
    });
  const roster = async (query = '') => {
    const response = await admin.get<RosterPage>(`/api/roster/${query}`);
    expect(response.status).toBe(200);
    return response.body;
  };
  const rosterRows = () =>
    ctx.db.kysely
      .selectFrom('roster_students')
      .select(['institution_id', 'email', 'name', 'group_name'])
      .orderBy('email')
      .execute();

  it('imports a registrar export with a BOM, CRLF, quotes and blank lines', async () => {
    const response = await upload(admin, REGISTRAR_FILE);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ success: true, imported: 4, updated: 0, errors: [], left: 0 });
    const page = await roster();
    expect(page.total).toBe(4);
    expect(page.groups).toEqual(['Biology', 'Chemistry, Year 1']);
    expect(page.students.map(({ id: _id, ...student }) => student)).toEqual([
      {
        name: 'Ann "Annie" Lee',
        email: 'ann@north.edu',
        group: 'Chemistry, Year 1',
        last_invited_at: null,
        last_answered_at: null,
        left_at: null,
      },
      {
        name: 'Bo Chen',
        email: 'bo@north.edu',
        group: null,
        last_invited_at: null,
        last_answered_at: null,
        left_at: null,
      },
      {
        name: 'Cy Park',
        email: 'cy@north.edu',
        group: 'Biology',
        last_invited_at: null,
        last_answered_at: null,
        left_at: null,
      },
      {
        name: 'Doe, Jane',
        email: 'jane.doe@north.edu',
        group: 'Biology',
        last_invited_at: null,
        last_answered_at: null,
        left_at: null,
      },
    ]);
  });

  it('reports every bad line by number and reason, and imports the others', async () => {
    const csv = [
      'name,email,group',
      'Good One,one@north.edu,A', // 2
      ',nameless@north.edu,A', // 3
      'Bad Mail,not-an-address,A', // 4
      'Outsider,out@south.edu,A', // 5
      'Good Again,ONE@north.edu,B', // 6: the same address as line 2
      'No Mail,,A', // 7
      'Good Two,two@north.edu', // 8: no group cell
      `The Admin,${cast.adminA.email},A`, // 9: a member of staff
    ].join('\n');
    const response = await upload(admin, csv);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      success: true,
      imported: 2,
      updated: 0,
      left: 0,
      errors: [
        { line: 3, message: 'The name is missing' },
        { line: 4, message: '"not-an-address" is not a valid email address' },
        { line: 5, message: 'out@south.edu: Use your North University email address (@north.edu)' },
        { line: 6, message: 'one@north.edu is already on line 2 of this file' },
        { line: 7, message: 'The email address is missing' },
        { line: 9, message: `${cast.adminA.email} belongs to a member of staff; only students are surveyed` },
      ],
    });
    expect(await rosterRows()).toEqual([
      { institution_id: cast.a.id, email: 'one@north.edu', name: 'Good One', group_name: 'A' },
      { institution_id: cast.a.id, email: 'two@north.edu', name: 'Good Two', group_name: null },
    ]);
  });

  it('updates names and groups on a re-upload and never lists a student twice', async () => {
    await upload(admin, 'name,email,group\nAnn Lee,ann@north.edu,A\nBo Chen,bo@north.edu,A\n');
    const again = await upload(
      admin,
      'email,name,group\nANN@north.edu,Ann Lee-Park,B\ncy@north.edu,Cy Park,B\n',
    );
    expect(again.body).toEqual({ success: true, imported: 1, updated: 1, errors: [], left: 0 });
    // A file without a group column leaves the groups as they were.
    const names = await upload(admin, 'name,email\nBo Chen-Smith,bo@north.edu\n');
    expect(names.body).toEqual({ success: true, imported: 0, updated: 1, errors: [], left: 0 });
    expect(await rosterRows()).toEqual([
      { institution_id: cast.a.id, email: 'ann@north.edu', name: 'Ann Lee-Park', group_name: 'B' },
      { institution_id: cast.a.id, email: 'bo@north.edu', name: 'Bo Chen-Smith', group_name: 'A' },
      { institution_id: cast.a.id, email: 'cy@north.edu', name: 'Cy Park', group_name: 'B' },
    ]);
  });

  it('refuses a file it cannot read as a roster whole, changing nothing', async () => {
    await upload(admin, 'name,email\nAnn Lee,ann@north.edu\n');
    const before = await rosterRows();
    const unclosed = await upload(admin, 'name,email\nNew One,new@north.edu\n"Broken,bad@north.edu\n');
    expect(unclosed.status).toBe(400);
    expect(unclosed.body).toMatchObject({
      code: 'BAD_REQUEST',
      message: expect.stringMatching(/not valid CSV at line 3/),
    });
    expectError(await upload(admin, 'first,second\nNew One,new@north.edu\n'), 400, 'BAD_REQUEST', NO_HEADER);
    expectError(await upload(admin, '\ufeff\r\n\r\n'), 400, 'BAD_REQUEST', EMPTY_FILE);
    expectError(await upload(admin, 'name,email\n'), 400, 'BAD_REQUEST', EMPTY_FILE);
    // A zip file (an .xlsx): NUL bytes are refused before any route reads the body.
    const zip = Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x14, 0x00, 0x06, 0x00, 0x08, 0x00, 0xff, 0xfe]);
    expect(await upload(admin, zip)).toMatchObject({ status: 400, body: { code: 'BAD_REQUEST' } });
    const binary = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0xff, 0xd8, 0x80]);
    expectError(await upload(admin, binary), 400, 'BAD_REQUEST', NOT_TEXT);
    // A spreadsheet saved as Latin-1 is not UTF-8: refused, not imported with broken names.
    expectError(
      await upload(admin, Buffer.from('name,email\nJos\xe9 Ruiz,jose@north.edu\n', 'latin1')),
      400,
      'BAD_REQUEST',
      NOT_TEXT,
    );
    const huge = Buffer.alloc(50 * 1024 * 1024, 'a');
    expectError(await upload(admin, huge), 413, 'PAYLOAD_TOO_LARGE', 'Request body is too large');
    expectError(
      await upload(admin, JSON.stringify({ csv: 'name,email' }), 'application/json'),
      400,
      'VALIDATION_FAILED',
      'Send the roster as a CSV file (Content-Type: text/csv)',
    );
    const xml = await upload(admin, '<roster/>', 'application/xml');
    expect(xml.status).toBe(415);
    expect(await rosterRows()).toEqual(before);
  });

  it('records every import and every read of the roster in the audit log', async () => {
    await upload(admin, 'name,email\nAnn Lee,ann@north.edu\nBad,bad\n');
    await roster('?q=ann');
    const entries = await ctx.db.kysely
      .selectFrom('audit_log')
      .select(['institution_id', 'actor_email', 'action', 'detail'])
      .where(notSigningIn)
      .orderBy('id')
      .execute();
    expect(entries).toEqual([
      {
        institution_id: cast.a.id,
        actor_email: cast.adminA.email,
        action: 'roster.import',
        detail: JSON.stringify({ imported: 1, updated: 0, refused_lines: 1, missing: 'keep', left: 0 }),
      },
      {
        institution_id: cast.a.id,
        actor_email: cast.adminA.email,
        action: 'roster.read',
        detail: JSON.stringify({ offset: 0, limit: 50, search: 'ann' }),
      },
    ]);
  });

  it('is for admins only, each seeing their own institution', async () => {
    await upload(admin, 'name,email,group\nAnn Lee,ann@north.edu,A\n');
    const student = new TestAgent(ctx.app);
    await student.signInDirectly(ctx.db, cast.studentA.email);
    expectError(await student.get('/api/roster/'), 403, 'FORBIDDEN', 'Admin access required');
    expectError(
      await upload(student, 'name,email\nX,x@north.edu\n'),
      403,
      'FORBIDDEN',
      'Admin access required',
    );
    expectError(
      await new TestAgent(ctx.app).get('/api/roster/'),
      401,
      'UNAUTHENTICATED',
      'Authentication required',
    );
    const adminB = new TestAgent(ctx.app);
    await adminB.signInDirectly(ctx.db, cast.adminB.email);
    expect((await adminB.get<RosterPage>('/api/roster/')).body).toMatchObject({
      total: 0,
      students: [],
      groups: [],
    });
    // B's domains are B's: A's students are outside them.
    const refused = await upload(adminB, 'name,email\nAnn Lee,ann@north.edu\n');
    expect(refused.body).toMatchObject({ imported: 0, errors: [{ line: 2 }] });
  });

  it('pages, searches by name or address and filters by group', async () => {
    const lines = ['name,email,group'];
    for (let index = 0; index < 30; index += 1)
      lines.push(
        `Student ${String(index).padStart(2, '0')},s${index}@north.edu,${index % 2 ? 'Odd' : 'Even'}`,
      );
    lines.push('Percent 100%,pct@north.edu,Odd');
    await upload(admin, lines.join('\n'));
    const first = await roster('?limit=10');
    expect(first.total).toBe(31);
    expect(first.students.map((s) => s.name)).toEqual([
      'Percent 100%',
      ...Array.from({ length: 9 }, (_, index) => `Student 0${index}`),
    ]);
    const third = await roster('?limit=10&offset=20');
    expect(third.students.map((s) => s.name)[0]).toBe('Student 19');
    expect((await roster('?q=STUDENT%202')).students.map((s) => s.email)).toEqual(
      Array.from({ length: 10 }, (_, index) => `s${20 + index}@north.edu`),
    );
    expect((await roster('?q=s7%40')).students.map((s) => s.email)).toEqual(['s7@north.edu']);
    // % is a character to look for, not a wildcard.
    expect((await roster('?q=%25')).students.map((s) => s.email)).toEqual(['pct@north.edu']);
    expect((await roster('?group=Odd')).total).toBe(16);
    expectError(await admin.get('/api/roster/?limit=1000'), 400, 'VALIDATION_FAILED', 'limit is at most 100');
  });

  it('shows when each student last answered', async () => {
    await upload(admin, 'name,email\nSam North,student@north.edu\nAnn Lee,ann@north.edu\n');
    const questions = await activeQuestions(ctx.db.kysely, cast.a.id);
    const at = Date.UTC(2026, 0, 15, 12);
    await addSubmission(ctx.db.kysely, {
      institutionId: cast.a.id,
      email: 'student@north.edu',
      name: 'Sam North',
      at,
      tier: 'none',
      answers: [{ question: questions.sleep, value: 2 }],
    });
    const page = await roster();
    expect(page.students.map((s) => [s.email, s.last_answered_at])).toEqual([
      ['ann@north.edu', null],
      ['student@north.edu', new Date(at).toISOString()],
    ]);
  });

  it('makes the roster the response rate denominator once there is one', async () => {
    const questions = await activeQuestions(ctx.db.kysely, cast.a.id);
    const answer = (email: string, at: number) =>
      addSubmission(ctx.db.kysely, {
        institutionId: cast.a.id,
        email,
        name: email.split('@')[0] ?? 'x',
        at,
        tier: 'none',
        answers: [{ question: questions.sleep, value: 2 }],
      });
    await answer('student@north.edu', Date.now() - DAY);
    await answer('walkin@north.edu', Date.now() - DAY);
    const dashboard = async () => (await admin.get<DashboardData>('/api/dashboard/')).body;
    // No roster: every student the institution knows of (design section 5).
    expect((await dashboard()).response_rate).toBe(100);
    await upload(
      admin,
      'name,email\nSam North,student@north.edu\nAnn Lee,ann@north.edu\nBo Chen,bo@north.edu\n',
    );
    const withRoster = await dashboard();
    // Of three roster students one answered; the walk-in is not on the roster.
    expect(withRoster.response_rate).toBe(33);
    expect(withRoster.monthly_response_rates.at(-1)).toBe(33);
    expect(withRoster.monthly_response_rates.at(-2)).toBe(0);
  });
});

/** A registrar's file of `count` students of North University, one line each after the header. */
function northRoster(count: number, from = 0): string[] {
  const lines: string[] = [];
  for (let index = from; index < from + count; index += 1)
    lines.push(`Student ${index},s${index}@north.edu,Year 1`);
  return lines;
}

describe('reading a roster file', () => {
  const checks = {
    institution: { name: 'North University', domains: ['north.edu'] },
    staffAddresses: new Set<string>(),
  };

  it(`gives the event loop a turn at least every ${ROWS_PER_TURN} rows while it reads and checks`, async () => {
    const rows = 10 * ROWS_PER_TURN;
    const text = ['name,email,group', ...northRoster(rows)].join('\n');
    // One chunk holding the whole file: the parser has every row at once, so only the reader's
    // own turns let anything else run before it is through.
    const { result, turns } = await turnsTakenDuring(() =>
      readRosterCsv(Readable.from([Buffer.from(text)]), checks),
    );
    expect(result.rows).toHaveLength(rows);
    expect(turns).toBeGreaterThanOrEqual(rows / ROWS_PER_TURN);
  });

  it('refuses a file past the row limit as soon as it gets there, before the upload has ended', async () => {
    let ended = false;
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    async function* upload() {
      yield Buffer.from('name,email\n');
      for (let start = 0; start <= LIMITS.rosterRows.max; start += 10_000)
        yield Buffer.from(`${northRoster(10_000, start).join('\n')}\n`);
      // The rest of the upload has not arrived: a reader that waits for the whole of it never answers.
      await held;
      ended = true;
    }
    const refused = readRosterCsv(Readable.from(upload()), checks);
    await expect(refused).rejects.toMatchObject({
      code: 'BAD_REQUEST',
      message: expect.stringMatching(/more than 100,000 students/),
    });
    expect(ended).toBe(false);
    release();
  });
});

describe.each(TEST_DIALECTS)('roster imports on %s', (dialect) => {
  let ctx: TestContext;
  let cast: Awaited<ReturnType<typeof makeTwoInstitutions>>;

  beforeEach(async () => {
    ctx = await createTestApp(dialect);
    cast = await makeTwoInstitutions(ctx.db.kysely);
  });
  afterEach(async () => ctx.close());

  it('lets the event loop take turns while a large file is read, checked and written', async () => {
    const rows = 6 * ROWS_PER_TURN;
    const actor = {
      institutionId: cast.a.id,
      userId: cast.adminA.id,
      email: cast.adminA.email,
      address: null,
    };
    const csv = ['name,email,group', ...northRoster(rows)].join('\n');
    const { result, turns } = await turnsTakenDuring(() => importRoster({ db: ctx.db.kysely, actor, csv }));
    expect(result.imported).toBe(rows);
    expect(turns).toBeGreaterThanOrEqual(rows / ROWS_PER_TURN);
  });

  it('takes a few imports per institution in ten minutes, whoever sends them', async () => {
    const { max } = DEFAULT_LIMITS.rosterImports;
    const adminA = new TestAgent(ctx.app);
    await adminA.signInDirectly(ctx.db, cast.adminA.email);
    const send = (agent: TestAgent) =>
      agent.request({
        method: 'POST',
        url: '/api/roster/',
        payload: 'name,email\nAnn Lee,ann@north.edu\n',
        headers: { 'content-type': 'text/csv' },
      });
    for (let n = 0; n < max; n++) expect((await send(adminA)).status).toBe(200);
    expectError(await send(adminA), 429, 'TOO_MANY_REQUESTS', TOO_MANY_REQUESTS_MESSAGE);
    const adminB = new TestAgent(ctx.app);
    await adminB.signInDirectly(ctx.db, cast.adminB.email);
    expect((await send(adminB)).status, "another institution's allowance is its own").toBe(200);
  });
});
