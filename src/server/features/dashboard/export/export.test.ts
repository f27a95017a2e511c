import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, TestAgent, type TestContext } from '../../../../../test/helpers/app';
import { parseCsv } from '../../../../../test/helpers/csv';
import { activeQuestions, addSubmission } from '../../../../../test/helpers/dashboard-data';
import { TEST_DIALECTS } from '../../../../../test/helpers/databases';
import { makeTwoInstitutions } from '../../../../../test/helpers/factories';
import { csvCell, csvRow } from '../../../lib/csv';

describe('csv cells', () => {
  it('neutralises every formula trigger with a leading apostrophe', () => {
    expect(csvCell('=1+1')).toBe("'=1+1");
    expect(csvCell('+SUM(A1)')).toBe("'+SUM(A1)");
    expect(csvCell('-2')).toBe("'-2");
    expect(csvCell('@cmd')).toBe("'@cmd");
    expect(csvCell('\tx')).toBe("'\tx");
    expect(csvCell('\rx')).toBe(`"'\rx"`);
    expect(csvCell('=HYPERLINK("http://x","y")')).toBe(`"'=HYPERLINK(""http://x"",""y"")"`);
  });

  it('neutralises a formula trigger after any separator a spreadsheet may split the cell on', () => {
    expect(csvCell('Ann;=HYPERLINK("http://x","y")')).toBe(`"Ann;'=HYPERLINK(""http://x"",""y"")"`);
    expect(csvCell('a,+1')).toBe(`"a,'+1"`);
    expect(csvCell('a\t@cmd')).toBe("a\t'@cmd");
    expect(csvCell('a| -2')).toBe("a| '-2");
    expect(csvCell('line\n=1+1')).toBe(`"line\n'=1+1"`);
    expect(csvCell('line\r\n=1+1')).toBe(`"line\r\n'=1+1"`);
    expect(csvCell('=1;=2')).toBe("'=1;'=2");
    // Text without a trigger after its separators is left as it is.
    expect(csvCell('ok; fine, thanks')).toBe('"ok; fine, thanks"');
    expect(csvCell('1-2 = 3')).toBe('1-2 = 3');
  });

  it('quotes only what needs quoting and leaves plain text alone', () => {
    expect(csvCell('Ann Smith')).toBe('Ann Smith');
    expect(csvCell('a, b')).toBe('"a, b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
    expect(csvCell(3)).toBe('3');
    expect(csvCell(null)).toBe('');
    expect(csvRow(['a', 'b,c'])).toBe('a,"b,c"\r\n');
  });
});

describe.each(TEST_DIALECTS)('CSV export (%s)', (dialect) => {
  let context: TestContext;
  let cast: Awaited<ReturnType<typeof makeTwoInstitutions>>;
  let templateId: number | null;
  let questionTexts: { sleep: string; comment: string; extra: string };

  beforeAll(async () => {
    context = await createTestApp(dialect);
    const db = context.db.kysely;
    cast = await makeTwoInstitutions(db);
    const q = await activeQuestions(db, cast.a.id);
    templateId = q.templateId;
    // A question answered once and then deleted: its answers keep their column.
    const extra = await db
      .insertInto('questions')
      .values({
        template_id: templateId as number,
        question_text: 'Did you eat breakfast today?',
        question_type: 'text',
        category: 'general',
        answer_choices: null,
        position: 99,
        created_at: Date.now(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const extraRef = {
      id: extra.id,
      text: 'Did you eat breakfast today?',
      category: 'general' as const,
      type: 'text' as const,
    };
    questionTexts = { sleep: q.sleep.text, comment: q.comment.text, extra: extraRef.text };

    const north = (
      email: string,
      name: string,
      iso: string,
      answers: Parameters<typeof addSubmission>[1]['answers'],
      reasons: string[] = [],
    ) =>
      addSubmission(db, {
        institutionId: cast.a.id,
        email,
        name,
        at: Date.parse(iso),
        tier: reasons.length ? 'elevated' : 'none',
        reasons,
        templateId,
        answers,
      });
    await north('ann@north.edu', 'Ann, "the" Smith', '2025-03-01T08:00:00Z', [
      { question: q.sleep, value: 2 },
      { question: q.comment, value: '+SUM(A1:A2)' },
      { question: extraRef, value: 'yes' },
    ]);
    await north(
      'eve@north.edu',
      '=HYPERLINK("http://evil.example","click")',
      '2025-03-02T08:00:00Z',
      [
        { question: q.sleep, value: 5 },
        { question: q.comment, value: '-2+3' },
      ],
      ['Mean of answers 4.0', 'Free text: hopelessness'],
    );
    await north('tab@north.edu', '@admin', '2025-03-03T08:00:00Z', [{ question: q.comment, value: '\tcmd' }]);
    await north('cr@north.edu', 'Carriage', '2025-03-04T08:00:00Z', [
      { question: q.comment, value: '\rcmd\nsecond line' },
    ]);
    await db.deleteFrom('questions').where('id', '=', extra.id).execute();
    // Someone with the link, in Ann's name, without proving her address.
    await addSubmission(db, {
      institutionId: cast.a.id,
      email: 'ann@north.edu',
      name: 'Invented By A Stranger',
      at: Date.parse('2025-03-05T08:00:00Z'),
      tier: 'urgent',
      templateId,
      answers: [],
      unproven: true,
    });
    await addSubmission(db, {
      institutionId: cast.b.id,
      email: 'other@south.edu',
      name: 'Not Yours',
      at: Date.parse('2025-03-05T08:00:00Z'),
      tier: 'urgent',
      answers: [],
    });
  });
  afterAll(async () => {
    await context.close();
  });

  it("streams the admin's submissions, one row each, one column per question, formulas neutralised", async () => {
    const agent = new TestAgent(context.app);
    await agent.signInDirectly(context.db, cast.adminA.email);
    const response = await agent.get<string>('/api/dashboard/export.csv');
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toMatch(
      /^attachment; filename="wellness-submissions-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.body.startsWith('\uFEFF')).toBe(true);

    const template = String(templateId);
    expect(parseCsv(response.body.slice(1))).toEqual([
      [
        'Date',
        'Student Name',
        'Claimed Name (unverified)',
        'Email',
        'Verified',
        'Template',
        'Tier',
        'Reasons',
        questionTexts.sleep,
        questionTexts.comment,
        questionTexts.extra,
      ],
      [
        '2025-03-01T08:00:00.000Z',
        'Ann, "the" Smith',
        '',
        'ann@north.edu',
        'yes',
        template,
        'none',
        '',
        '2',
        "'+SUM(A1:A2)",
        'yes',
      ],
      [
        '2025-03-02T08:00:00.000Z',
        `'=HYPERLINK("http://evil.example","click")`,
        '',
        'eve@north.edu',
        'yes',
        template,
        'elevated',
        'Mean of answers 4.0; Free text: hopelessness',
        '5',
        "'-2+3",
        '',
      ],
      [
        '2025-03-03T08:00:00.000Z',
        "'@admin",
        '',
        'tab@north.edu',
        'yes',
        template,
        'none',
        '',
        '',
        "'\tcmd",
        '',
      ],
      [
        '2025-03-04T08:00:00.000Z',
        'Carriage',
        '',
        'cr@north.edu',
        'yes',
        template,
        'none',
        '',
        '',
        "'\rcmd\nsecond line",
        '',
      ],
      [
        '2025-03-05T08:00:00.000Z',
        '',
        'Invented By A Stranger',
        'ann@north.edu',
        'no',
        template,
        'urgent',
        '',
        '',
        '',
        '',
      ],
    ]);
    expect(response.body).not.toContain('Not Yours');
  });

  it('gives the other institution only its own submissions, and refuses students', async () => {
    const south = new TestAgent(context.app);
    await south.signInDirectly(context.db, cast.adminB.email);
    const rows = parseCsv((await south.get<string>('/api/dashboard/export.csv')).body.slice(1));
    expect(rows).toHaveLength(2);
    expect(rows[1]?.slice(1, 7)).toEqual(['Not Yours', '', 'other@south.edu', 'yes', '', 'urgent']);

    const student = new TestAgent(context.app);
    await student.signInDirectly(context.db, cast.studentA.email);
    expect((await student.get('/api/dashboard/export.csv')).status).toBe(403);
  });

  it('pages through large exports without losing or repeating rows', async () => {
    const db = context.db.kysely;
    const sameMoment = Date.parse('2025-04-01T00:00:00Z');
    // Written in bulk: the export reads submissions, not rollups. Three share each millisecond.
    const respondent = await db
      .insertInto('respondents')
      .values({
        institution_id: cast.b.id,
        email: 'bulk@south.edu',
        name: 'Bulk',
        user_id: null,
        created_at: sameMoment,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db
      .insertInto('submissions')
      .values(
        Array.from({ length: 1_100 }, (_, index) => ({
          institution_id: cast.b.id,
          template_id: null,
          respondent_id: respondent.id,
          user_id: null,
          client_submission_id: null,
          student_name: `Bulk ${index}`,
          school_email: 'bulk@south.edu',
          tier: 'none' as const,
          reasons: '[]',
          likert_mean: null,
          created_at: sameMoment + Math.floor(index / 3),
          verified_at: sameMoment,
        })),
      )
      .execute();
    const south = new TestAgent(context.app);
    await south.signInDirectly(context.db, cast.adminB.email);
    const rows = parseCsv((await south.get<string>('/api/dashboard/export.csv')).body.slice(1));
    const names = rows.slice(2).map((row) => row[1]);
    expect(names).toHaveLength(1_100);
    expect(new Set(names).size).toBe(1_100);
    expect(names[0]).toBe('Bulk 0');
    expect(names.at(-1)).toBe('Bulk 1099');
  });

  it('throttles exports past 10 a minute', async () => {
    const agent = new TestAgent(context.app);
    await agent.signInDirectly(context.db, cast.adminA.email);
    const statuses: number[] = [];
    for (let index = 0; index < 11; index += 1)
      statuses.push((await agent.get('/api/dashboard/export.csv')).status);
    expect(statuses).toContain(429);
    expect(statuses.filter((status) => status === 200).length).toBeLessThanOrEqual(10);
  });
});
