import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createTestApp, TestAgent, type TestContext } from '../../../../test/helpers/app';
import {
  activeQuestions,
  addStudent,
  addSubmission,
  rollupSnapshot,
} from '../../../../test/helpers/dashboard-data';
import { TEST_DIALECTS } from '../../../../test/helpers/databases';
import {
  makeInstitution,
  makeTwoInstitutions,
  makeUser,
  TEST_PASSWORD,
} from '../../../../test/helpers/factories';
import { proveAddress, registerProven } from '../../../../test/helpers/verify';
import { type DashboardData, UNVERIFIED_LIST_LIMIT } from '../../../common/schemas/dashboard';
import { rebuildDashboardRollups } from './rollups/rebuild';

/** The dashboard's clock for this file: mid-December 2025, so the 12 months are Jan..Dec 2025. */
const NOW = Date.parse('2025-12-15T12:00:00Z');
const at = (iso: string) => Date.parse(iso);
const HOUR = 3_600_000;

type Cast = Awaited<ReturnType<typeof makeTwoInstitutions>>;

type Questions = Awaited<ReturnType<typeof activeQuestions>>;

/**
 * A known institution: registered students with and without answers, link respondents (one of
 * whom registers later), several months and tiers, a student whose latest submission is no
 * longer flagged, and answers to a question that is deleted afterwards.
 */
async function buildNorth(context: TestContext, cast: Cast) {
  const db = context.db.kysely;
  const institutionId = cast.a.id;
  const q: Questions = await activeQuestions(db, institutionId);
  const submit = (
    email: string,
    name: string,
    iso: string,
    tier: 'none' | 'monitor' | 'elevated' | 'urgent',
    answers: [keyof Questions, number | string][],
    reasons: string[] = [],
  ) =>
    addSubmission(db, {
      institutionId,
      email,
      name,
      at: at(iso),
      tier,
      reasons,
      templateId: q.templateId,
      answers: answers.map(([key, value]) => ({ question: q[key] as Questions['sleep'], value })),
    });

  await addStudent(db, {
    institutionId,
    email: 'alice@north.edu',
    name: 'Alice Adams',
    registeredAt: at('2025-01-10T09:00:00Z'),
  });
  await addStudent(db, {
    institutionId,
    email: 'bob@north.edu',
    name: 'Bob Brown',
    registeredAt: at('2025-02-01T09:00:00Z'),
  });
  await addStudent(db, {
    institutionId,
    email: 'carol@north.edu',
    name: 'Carol Clark',
    registeredAt: at('2025-06-01T09:00:00Z'),
  });

  // Frank answered through the link before the dashboard's 12 months.
  await submit('frank@north.edu', 'Frank Fisher', '2024-11-20T10:00:00Z', 'none', [
    ['sleep', 3],
    ['stress', 2],
  ]);
  await submit('alice@north.edu', 'Alice Adams', '2025-03-05T10:00:00Z', 'none', [
    ['sleep', 1],
    ['sleep', 2],
    ['stress', 4],
    ['stress', 5],
    ['support', 1],
  ]);
  await submit('alice@north.edu', 'Alice Adams', '2025-03-20T10:00:00Z', 'none', [['support', 3]]);
  // Dave answers through the link, registers later, and answers again logged in.
  await submit(
    'dave@north.edu',
    'Dave Davis',
    '2025-10-01T10:00:00Z',
    'elevated',
    [['stress', 4]],
    ['Stress answers average 4.0 or worse'],
  );
  await addStudent(db, {
    institutionId,
    email: 'dave@north.edu',
    name: 'Dave Davis',
    registeredAt: at('2025-11-05T09:00:00Z'),
  });
  await submit(
    'dave@north.edu',
    'Dave Davis',
    '2025-11-06T10:00:00Z',
    'elevated',
    [
      ['sleep', 5],
      ['stress', 4],
      ['support', 4],
    ],
    ['Mean of answers 4.3'],
  );
  // Henry and Grace sit either side of the 30-day edge (2025-11-15T12:00Z), on the same day.
  await submit('henry@north.edu', 'Henry Hill', '2025-11-15T11:00:00Z', 'none', [['general', 5]]);
  await submit('grace@north.edu', 'Grace Green', '2025-11-15T13:00:00Z', 'none', [
    ['sleep', 2],
    ['stress', 3],
    ['stress', 4],
    ['support', 1],
  ]);
  // Bob was flagged in November; his latest submission is not.
  await submit(
    'bob@north.edu',
    'Bob Brown',
    '2025-11-20T10:00:00Z',
    'elevated',
    [
      ['sleep', 4],
      ['stress', 5],
      ['support', 2],
    ],
    ['Mean of answers 4.0'],
  );
  await submit(
    'erin@north.edu',
    'Erin Evans',
    '2025-12-01T10:00:00Z',
    'elevated',
    [
      ['sleep', 1],
      ['support', 5],
      ['comment', 'I feel like a burden'],
    ],
    ['Free text suggests hopelessness'],
  );
  await submit(
    'alice@north.edu',
    'Alice Adams',
    '2025-12-10T10:00:00Z',
    'urgent',
    [
      ['sleep', 5],
      ['stress', 3],
      ['support', 4],
      ['safety', 3],
    ],
    ['Safety answer: Sometimes'],
  );
  await submit(
    'bob@north.edu',
    'Bob Brown',
    '2025-12-12T10:00:00Z',
    'monitor',
    [
      ['sleep', 2],
      ['sleep', 3],
      ['stress', 1],
      ['support', 1],
    ],
    ['Mean worsened since last time'],
  );
  return { institutionId, questions: q };
}

const EXPECTED_NORTH: Omit<DashboardData, 'generated_at' | 'flagged_details'> = {
  unverified_flagged: [],
  identities_shown: true,
  num_unverified_flagged: 0,
  small_group_threshold: 5,
  // Stored straight through the rollups, these submissions opened no case.
  follow_up: {
    open_cases: 0,
    overdue_cases: 0,
    time_to_alert_sent: { count: 0, median_ms: null, p90_ms: null },
    time_to_acknowledge: { count: 0, median_ms: null, p90_ms: null },
  },
  months: [
    'Jan 2025',
    'Feb 2025',
    'Mar 2025',
    'Apr 2025',
    'May 2025',
    'Jun 2025',
    'Jul 2025',
    'Aug 2025',
    'Sep 2025',
    'Oct 2025',
    'Nov 2025',
    'Dec 2025',
  ],
  // Mar: Alice (twice, counted once); Oct: Dave; Nov: Dave, Henry, Grace, Bob; Dec: Erin, Alice, Bob.
  monthly_num_responses: [0, 0, 1, 0, 0, 0, 0, 0, 0, 1, 4, 3],
  // Mar 1 of 2 support answers positive; Nov: Dave 4, Grace 1, Bob 2 -> 2/3; Dec: Erin 5, Alice 4, Bob 1 -> 1/3.
  monthly_support_perception: [0, 0, 50, 0, 0, 0, 0, 0, 0, 0, 67, 33],
  // Known by month end: Jan 2 (Frank, Alice), Feb-May 3, Jun-Sep 4, Oct 5, Nov 7, Dec 9 (Erin, Sam).
  monthly_response_rates: [0, 0, 33, 0, 0, 0, 0, 0, 0, 20, 57, 33],
  num_responses: 11,
  // Alice (urgent), Erin, Dave.
  num_flagged_students: 3,
  // Bob (monitor), Frank, Grace, Henry; Carol and the factory's Sam never answered.
  num_stable_students: 4,
  // Alice, Bob, Erin, Grace of 9 students.
  response_rate: 44,
  num_students: 9,
  // Latest sleep means: Alice 5, Bob 2.5, Dave 5, Erin 1, Frank 3, Grace 2.
  num_good_sleep_quality: 2,
  num_bad_sleep_quality: 2,
  // Latest stress means: Alice 3, Bob 1, Dave 4, Frank 2, Grace 3.5.
  num_low_stress: 2,
  num_moderate_stress: 2,
  num_high_stress: 1,
  has_sleep_questions: true,
  has_support_questions: true,
  has_stress_questions: true,
  flagged_students: [
    ['Alice Adams', 'alice@north.edu'],
    ['Erin Evans', 'erin@north.edu'],
    ['Dave Davis', 'dave@north.edu'],
  ],
};

describe.each(TEST_DIALECTS)('dashboard numbers (%s)', (dialect) => {
  let context: TestContext;
  let cast: Cast;
  let north: Awaited<ReturnType<typeof buildNorth>>;

  beforeAll(async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(NOW);
    context = await createTestApp(dialect);
    cast = await makeTwoInstitutions(context.db.kysely);
    north = await buildNorth(context, cast);
    await addSubmission(context.db.kysely, {
      institutionId: cast.b.id,
      email: 'sky@south.edu',
      name: 'Sky South',
      at: at('2025-12-14T10:00:00Z'),
      tier: 'urgent',
      reasons: ['Safety answer: Often'],
      answers: [],
    });
  });
  afterAll(async () => {
    await context.close();
    vi.useRealTimers();
  });

  async function dashboardAs(email: string) {
    const agent = new TestAgent(context.app);
    await agent.signInDirectly(context.db, email);
    return agent.get<DashboardData>('/api/dashboard/');
  }

  it('gives every field of the spec, exactly, for the admin institution', async () => {
    const response = await dashboardAs(cast.adminA.email);
    expect(response.status).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    const { generated_at, flagged_details, ...numbers } = response.body;
    expect(numbers).toEqual(EXPECTED_NORTH);
    expect(generated_at).toBe('2025-12-15T12:00:00.000Z');
    expect(flagged_details).toEqual([
      {
        name: 'Alice Adams',
        email: 'alice@north.edu',
        tier: 'urgent',
        reasons: ['Safety answer: Sometimes'],
        submitted_at: '2025-12-10T10:00:00.000Z',
        student_id: expect.any(Number),
        case_id: null,
        case_status: null,
      },
      {
        name: 'Erin Evans',
        email: 'erin@north.edu',
        tier: 'elevated',
        reasons: ['Free text suggests hopelessness'],
        submitted_at: '2025-12-01T10:00:00.000Z',
        student_id: expect.any(Number),
        case_id: null,
        case_status: null,
      },
      {
        name: 'Dave Davis',
        email: 'dave@north.edu',
        tier: 'elevated',
        reasons: ['Mean of answers 4.3'],
        submitted_at: '2025-11-06T10:00:00.000Z',
        student_id: expect.any(Number),
        case_id: null,
        case_status: null,
      },
    ]);
  });

  it('matches a full rebuild of the rollups from the stored submissions', async () => {
    const incremental = await rollupSnapshot(context.db.kysely, north.institutionId);
    await rebuildDashboardRollups(context.db.kysely, north.institutionId);
    expect(await rollupSnapshot(context.db.kysely, north.institutionId)).toEqual(incremental);
    const { generated_at: _, ...afterRebuild } = (await dashboardAs(cast.adminA.email)).body;
    expect(afterRebuild).toMatchObject(EXPECTED_NORTH);
  });

  it('shows the other institution only its own data', async () => {
    const response = await dashboardAs(cast.adminB.email);
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      num_responses: 1,
      num_students: 2,
      num_flagged_students: 1,
      num_stable_students: 0,
      response_rate: 50,
      flagged_students: [['Sky South', 'sky@south.edu']],
      monthly_num_responses: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1],
    });
  });

  it('refuses students with 403, and anonymous visitors with 401', async () => {
    expect((await dashboardAs(cast.studentA.email)).status).toBe(403);
    expect((await dashboardAs(cast.studentA.email)).body).toEqual({
      success: false,
      code: 'FORBIDDEN',
      message: 'Staff access required',
    });
    const anonymous = new TestAgent(context.app);
    for (const url of [
      '/api/dashboard/',
      '/api/dashboard/flagged/',
      '/api/dashboard/export.csv',
      '/api/dashboard/events/',
    ]) {
      expect((await anonymous.get(url)).status).toBe(401);
    }
  });

  it('pages through flagged students in dashboard order', async () => {
    const agent = new TestAgent(context.app);
    await agent.signInDirectly(context.db, cast.adminA.email);
    const page = await agent.get<{ total: number; offset: number; students: { email: string }[] }>(
      '/api/dashboard/flagged/?offset=1&limit=1',
    );
    expect(page.status).toBe(200);
    expect(page.body.total).toBe(3);
    expect(page.body.students.map((student) => student.email)).toEqual(['erin@north.edu']);
    expect((await agent.get('/api/dashboard/flagged/?limit=0')).status).toBe(400);
    expect((await agent.get('/api/dashboard/flagged/?offset=abc')).status).toBe(400);
  });

  it('keeps the numbers when questions are deleted, and the has_ flags follow the templates', async () => {
    const agent = new TestAgent(context.app);
    await agent.signInDirectly(context.db, cast.adminA.email);
    const templateId = north.questions.templateId;
    const stressQuestions = await context.db.kysely
      .selectFrom('questions')
      .innerJoin('survey_templates', 'survey_templates.id', 'questions.template_id')
      .select('questions.id')
      .where('survey_templates.institution_id', '=', north.institutionId)
      .where('questions.category', 'in', ['stress', 'sleep'])
      .execute();
    for (const question of stressQuestions) {
      const deleted = await agent.delete(`/api/survey-templates/${templateId}/questions/`, {
        question_id: question.id,
      });
      expect(deleted.status).toBe(200);
    }
    const {
      generated_at: _,
      flagged_details: __,
      ...numbers
    } = (await agent.get<DashboardData>('/api/dashboard/')).body;
    expect(numbers).toEqual({ ...EXPECTED_NORTH, has_sleep_questions: false, has_stress_questions: false });
    await rebuildDashboardRollups(context.db.kysely, north.institutionId);
    const rebuilt = (await agent.get<DashboardData>('/api/dashboard/')).body;
    expect(rebuilt.num_bad_sleep_quality).toBe(EXPECTED_NORTH.num_bad_sleep_quality);
    expect(rebuilt.num_high_stress).toBe(EXPECTED_NORTH.num_high_stress);
  });
});

describe.each(TEST_DIALECTS)('dashboard through registration (%s)', (dialect) => {
  let context: TestContext;
  beforeEach(async () => {
    context = await createTestApp(dialect);
  });
  afterEach(async () => {
    await context.close();
  });

  it('counts a newly registered student, and a link respondent who registers only once', async () => {
    const cast = await makeTwoInstitutions(context.db.kysely);
    const db = context.db.kysely;
    await addSubmission(db, {
      institutionId: cast.a.id,
      email: 'link@north.edu',
      name: 'Lin K',
      at: Date.now() - HOUR,
      tier: 'none',
      answers: [],
    });
    const admin = new TestAgent(context.app);
    await admin.signInDirectly(context.db, cast.adminA.email);
    const register = async (email: string) => {
      const agent = new TestAgent(context.app);
      const registration = {
        institution_name: 'North University',
        name: 'New Student',
        email,
        password: 'a-long-unusual-passphrase',
      };
      const students = async () => (await admin.get<DashboardData>('/api/dashboard/')).body.num_students;
      const before = await students();
      const response = await agent.post('/api/register/', {
        ...registration,
        confirm_password: registration.password,
      });
      expect(response.status).toBe(201);
      // Not a student until the address is proven.
      expect(await students()).toBe(before);
      await registerProven(new TestAgent(context.app), db, registration);
    };
    await register('fresh@north.edu');
    await register('link@north.edu');
    const dashboard = (await admin.get<DashboardData>('/api/dashboard/')).body;
    // The factory's student, the link respondent (once) and the fresh registration.
    expect(dashboard.num_students).toBe(3);
    expect(dashboard.response_rate).toBe(33);
    expect(dashboard.num_stable_students).toBe(1);
  });

  it('counts a registration from the moment the account records, as a rebuild does', async () => {
    const cast = await makeTwoInstitutions(context.db.kysely);
    // A clock that moves on at every reading, as a real one may between two statements.
    let clock = Date.now();
    const ticking = vi.spyOn(Date, 'now').mockImplementation(() => {
      clock += 7;
      return clock;
    });
    try {
      await registerProven(new TestAgent(context.app), context.db.kysely, {
        institution_name: 'North University',
        name: 'Timely Student',
        email: 'timely@north.edu',
        password: 'a-long-unusual-passphrase',
      });
    } finally {
      ticking.mockRestore();
    }
    const kept = await rollupSnapshot(context.db.kysely, cast.a.id);
    await rebuildDashboardRollups(context.db.kysely, cast.a.id);
    expect(await rollupSnapshot(context.db.kysely, cast.a.id)).toEqual(kept);
  });

  it('counts unverified flagged answers exactly, past the length of their list', async () => {
    const cast = await makeTwoInstitutions(context.db.kysely);
    const total = UNVERIFIED_LIST_LIMIT + 5;
    for (let n = 0; n < total; n++) {
      await addSubmission(context.db.kysely, {
        institutionId: cast.a.id,
        email: `invented${n}@north.edu`,
        name: `Invented ${n}`,
        at: Date.now() - n * 1000,
        tier: 'urgent',
        answers: [],
        unproven: true,
      });
    }
    const admin = new TestAgent(context.app);
    await admin.login(cast.adminA.email, TEST_PASSWORD);
    const dashboard = (await admin.get<DashboardData>('/api/dashboard/')).body;
    expect(dashboard.unverified_flagged).toHaveLength(UNVERIFIED_LIST_LIMIT);
    expect(dashboard.num_unverified_flagged).toBe(total);
    expect(dashboard.num_flagged_students).toBe(0);
  });

  it('is all zeros for an institution without any data', async () => {
    const empty = await makeInstitution(context.db.kysely, 'Empty College', ['empty.edu']);
    const staff = await makeUser(context.db.kysely, {
      email: 'admin@empty.edu',
      role: 'institution_admin',
      institutionId: empty.id,
    });
    const admin = new TestAgent(context.app);
    await admin.signInDirectly(context.db, staff.email);
    const dashboard = (await admin.get<DashboardData>('/api/dashboard/')).body;
    expect(dashboard).toMatchObject({
      num_responses: 0,
      num_students: 0,
      response_rate: 0,
      flagged_students: [],
      flagged_details: [],
      monthly_num_responses: new Array(12).fill(0),
      monthly_response_rates: new Array(12).fill(0),
      monthly_support_perception: new Array(12).fill(0),
    });
    expect(dashboard.months).toHaveLength(12);
  });
});

describe.each(TEST_DIALECTS)('dashboard through the survey endpoints (%s)', (dialect) => {
  let context: TestContext;
  beforeAll(async () => {
    context = await createTestApp(dialect);
  });
  afterAll(async () => {
    await context.close();
  });

  it('counts a logged-in submission and a shared-link submission exactly', async () => {
    const cast = await makeTwoInstitutions(context.db.kysely);
    const student = new TestAgent(context.app);
    await student.signInDirectly(context.db, cast.studentA.email);
    const survey = await student.get<{
      template_id: number;
      questions: { id: number; question_type: string; category: string }[];
    }>('/api/get-user-survey-questions/');
    expect(survey.status).toBe(200);
    const answersWith = (likert: (category: string) => string) =>
      Object.fromEntries(
        survey.body.questions.map((question) => [
          String(question.id),
          question.question_type === 'text' ? 'All good, thanks' : likert(question.category),
        ]),
      );
    const calm = await student.post('/api/survey/', {
      survey_template_id: survey.body.template_id,
      answers: answersWith(() => '1'),
    });
    expect(calm.status).toBe(200);

    const link = await context.db.kysely
      .selectFrom('survey_templates')
      .select('hash_link')
      .where('id', '=', survey.body.template_id)
      .executeTakeFirstOrThrow();
    const visitor = new TestAgent(context.app);
    const urgent = await visitor.post(`/api/survey/link/${link.hash_link}/`, {
      student_name: 'Vera Visitor',
      school_email: 'vera@north.edu',
      answers: answersWith((category) => (category === 'safety' ? '4' : '5')),
    });
    expect(urgent.status).toBe(200);
    expect(urgent.body).toMatchObject({ verification_required: true });

    const admin = new TestAgent(context.app);
    await admin.signInDirectly(context.db, cast.adminA.email);
    // Unproven, the urgent answer is kept but counts in none of the numbers.
    const before = (await admin.get<DashboardData>('/api/dashboard/')).body;
    expect(before).toMatchObject({
      num_responses: 1,
      num_students: 1,
      num_flagged_students: 0,
      num_stable_students: 1,
      flagged_students: [],
    });

    // Proving the address from the same browser promotes it, exactly as a rebuild counts it.
    await proveAddress(visitor, context.db.kysely, 'vera@north.edu', link.hash_link);
    const kept = await rollupSnapshot(context.db.kysely, cast.a.id);
    await rebuildDashboardRollups(context.db.kysely, cast.a.id);
    expect(await rollupSnapshot(context.db.kysely, cast.a.id)).toEqual(kept);
    const dashboard = (await admin.get<DashboardData>('/api/dashboard/')).body;
    expect(dashboard).toMatchObject({
      num_responses: 2,
      num_students: 2,
      num_flagged_students: 1,
      num_stable_students: 1,
      response_rate: 100,
      num_good_sleep_quality: 1,
      num_bad_sleep_quality: 1,
      num_low_stress: 1,
      num_high_stress: 1,
      flagged_students: [['Vera Visitor', 'vera@north.edu']],
    });
    expect(dashboard.monthly_num_responses.at(-1)).toBe(2);
    expect(dashboard.monthly_support_perception.at(-1)).toBe(50);
    expect(dashboard.flagged_details[0]?.tier).toBe('urgent');
    expect(dashboard.flagged_details[0]?.reasons.length).toBeGreaterThan(0);
    // The row links to the case the urgent answer opened, and shows its state.
    const [opened] = await context.db.kysely.selectFrom('cases').select(['id', 'respondent_id']).execute();
    expect(dashboard.flagged_details[0]).toMatchObject({
      case_id: opened?.id,
      case_status: 'new',
      student_id: opened?.respondent_id,
    });
    expect(dashboard.follow_up).toMatchObject({ open_cases: 1, time_to_alert_sent: { count: 0 } });
  });

  it('gives the time from submission to alert sent and to acknowledgement, median and 90th percentile', async () => {
    const east = await makeInstitution(context.db.kysely, 'East University', ['east.edu']);
    const eastAdmin = await makeUser(context.db.kysely, {
      email: 'admin@east.edu',
      role: 'institution_admin',
      institutionId: east.id,
    });
    const link = await context.db.kysely
      .selectFrom('survey_templates')
      .select(['id', 'hash_link'])
      .where('institution_id', '=', east.id)
      .executeTakeFirstOrThrow();
    const questions = await context.db.kysely
      .selectFrom('questions')
      .select(['id', 'question_type'])
      .where('template_id', '=', link.id)
      .execute();
    const start = Date.UTC(2026, 0, 5, 9);
    vi.useFakeTimers({ toFake: ['Date'] });
    for (const [index, name] of ['ann', 'ben', 'cat'].entries()) {
      vi.setSystemTime(start + index * 60_000);
      // From three clients: unproven urgent answers from one client alert at once only twice an hour.
      const answered = await new TestAgent(context.app).request({
        method: 'POST',
        url: `/api/survey/link/${link.hash_link}/`,
        remoteAddress: `192.0.2.${index + 1}`,
        payload: {
          student_name: name,
          school_email: `${name}@east.edu`,
          answers: Object.fromEntries(
            questions.map((question) => [
              String(question.id),
              question.question_type === 'text' ? 'I want to kill myself' : '1',
            ]),
          ),
        },
      });
      expect(answered.status).toBe(200);
    }
    // The alerts go out 2 s, 3 s and 4 s after their submissions (one alert contact: the admin).
    const alerts = await context.db.kysely
      .selectFrom('case_mails')
      .innerJoin('cases', 'cases.id', 'case_mails.case_id')
      .select(['case_mails.mail_id', 'cases.first_submitted_at'])
      .where('cases.institution_id', '=', east.id)
      .orderBy('cases.id')
      .execute();
    for (const [index, alert] of alerts.entries()) {
      await context.db.kysely
        .updateTable('mail_outbox')
        .set({ status: 'sent', sent_at: alert.first_submitted_at + (index + 2) * 1000 })
        .where('id', '=', alert.mail_id)
        .execute();
    }
    const admin = new TestAgent(context.app);
    await admin.signInDirectly(context.db, eastAdmin.email);
    const opened = await context.db.kysely
      .selectFrom('cases')
      .select('id')
      .where('institution_id', '=', east.id)
      .orderBy('id')
      .execute();
    // Acknowledged 10 minutes after the first submission, which is 10, 9 and 8 minutes after each.
    vi.setSystemTime(start + 10 * 60_000);
    for (const { id } of opened) await admin.post(`/api/cases/${id}/acknowledge/`);
    vi.setSystemTime(start + 20 * 60_000);
    const response = await admin.get<DashboardData>('/api/dashboard/');
    vi.useRealTimers();
    expect(response.status, response.text).toBe(200);
    const dashboard = response.body;
    expect(dashboard.follow_up).toEqual({
      open_cases: 3,
      overdue_cases: 0,
      time_to_alert_sent: { count: 3, median_ms: 3000, p90_ms: 4000 },
      time_to_acknowledge: { count: 3, median_ms: 9 * 60_000, p90_ms: 10 * 60_000 },
    });
  });
});
