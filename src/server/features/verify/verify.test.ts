import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createTestApp, TestAgent, type TestContext } from '../../../../test/helpers/app';
import { rollupSnapshot } from '../../../../test/helpers/dashboard-data';
import { TEST_DIALECTS } from '../../../../test/helpers/databases';
import { makeTwoInstitutions, TEST_PASSWORD } from '../../../../test/helpers/factories';
import { latestCodeFor, proveAddress, registerProven } from '../../../../test/helpers/verify';
import type { DashboardData } from '../../../common/schemas/dashboard';
import { SIGN_IN_CHANGE_SUBJECT } from '../../../common/schemas/second-factor';
import type { SurveyQuestion } from '../../../common/schemas/surveys';
import { MINUTE } from '../../lib/time';
import { ACCOUNT_EXISTS_MAILS_PER_DAY } from '../auth';
import { rebuildDashboardRollups } from '../dashboard';
import { UNCONFIRMED_NAME } from '../surveys';
import {
  CODE_REFUSED,
  CODE_TRIES,
  CODES_PER_ADDRESS_PER_BROWSER_PER_HOUR,
  CODES_PER_ADDRESS_PER_CLIENT_PER_HOUR,
  CODES_PER_ADDRESS_PER_HOUR,
} from './codes';
import { CODE_SENT } from './service';

/** Every question answered with one Likert value (and a calm line of text). */
function answersAll(questions: SurveyQuestion[], likert: string): Record<string, string> {
  return Object.fromEntries(
    questions.map((question) => [String(question.id), question.question_type === 'text' ? 'Fine.' : likert]),
  );
}

describe.each(TEST_DIALECTS)('proving an address on %s', (dialect) => {
  let ctx: TestContext;
  let cast: Awaited<ReturnType<typeof makeTwoInstitutions>>;
  let hashLink: string;
  let questions: SurveyQuestion[];
  let admin: TestAgent;

  beforeEach(async () => {
    ctx = await createTestApp(dialect);
    cast = await makeTwoInstitutions(ctx.db.kysely);
    const link = await ctx.db.kysely
      .selectFrom('survey_templates')
      .select('hash_link')
      .where('institution_id', '=', cast.a.id)
      .executeTakeFirstOrThrow();
    hashLink = link.hash_link;
    questions = (
      await new TestAgent(ctx.app).get<{ questions: SurveyQuestion[] }>(
        `/api/get-user-survey-questions/${hashLink}/`,
      )
    ).body.questions;
    admin = new TestAgent(ctx.app);
    await admin.signInDirectly(ctx.db, cast.adminA.email);
  });
  afterEach(async () => {
    await ctx.close();
  });

  const submit = (agent: TestAgent, name: string, email: string, likert: string) =>
    agent.post(`/api/survey/link/${hashLink}/`, {
      student_name: name,
      school_email: email,
      answers: answersAll(questions, likert),
    });
  const dashboard = async () => (await admin.get<DashboardData>('/api/dashboard/')).body;
  const codeCount = async (email: string) =>
    (await ctx.db.kysely.selectFrom('mail_outbox').select('id').where('to_address', '=', email).execute())
      .length;

  describe('POST /api/verify/start/', () => {
    it('answers the same for an account, a stranger and a student who never answered', async () => {
      const answers = [];
      for (const email of [cast.studentA.email, 'nobody@north.edu', 'NEW.Person@north.edu']) {
        const response = await new TestAgent(ctx.app).post('/api/verify/start/', {
          email,
          hash_link: hashLink,
        });
        expect(response.status).toBe(200);
        answers.push(response.body);
      }
      expect(answers).toEqual([
        { success: true, message: CODE_SENT('student@north.edu') },
        { success: true, message: CODE_SENT('nobody@north.edu') },
        { success: true, message: CODE_SENT('new.person@north.edu') },
      ]);
      expect(await codeCount('new.person@north.edu')).toBe(1);
    });

    it("refuses an address outside the link's institution and an unknown link, sending nothing", async () => {
      const agent = new TestAgent(ctx.app);
      const foreign = await agent.post('/api/verify/start/', { email: 'sky@south.edu', hash_link: hashLink });
      expect(foreign.status).toBe(400);
      const unknown = await agent.post('/api/verify/start/', { email: 'a@north.edu', hash_link: 'nope' });
      expect(unknown.status).toBe(404);
      const nowhere = await agent.post('/api/verify/start/', { email: 'a@gmail.com' });
      expect(nowhere.status).toBe(400);
      // The staff sign-ins of the set-up are told to their owners; nothing else is sent.
      expect(
        await ctx.db.kysely
          .selectFrom('mail_outbox')
          .selectAll()
          .where('subject', '!=', SIGN_IN_CHANGE_SUBJECT)
          .execute(),
      ).toEqual([]);
    });

    const startFrom = (agent: TestAgent, address: string, email: string) =>
      agent.request({
        method: 'POST',
        url: '/api/verify/start/',
        payload: { email },
        remoteAddress: address,
      });

    it('mails an address at most a few codes an hour from one client, answering the same past that', async () => {
      for (let n = 0; n < CODES_PER_ADDRESS_PER_CLIENT_PER_HOUR + 3; n++) {
        // A fresh browser each time, as a script would: the client address still counts.
        const response = await startFrom(new TestAgent(ctx.app), '198.51.100.7', 'flood@north.edu');
        expect(response.body).toEqual({ success: true, message: CODE_SENT('flood@north.edu') });
      }
      expect(await codeCount('flood@north.edu')).toBe(CODES_PER_ADDRESS_PER_CLIENT_PER_HOUR);
    });

    it("leaves the owner a code however often a stranger asks for the owner's address", async () => {
      const email = 'owner@north.edu';
      for (let n = 0; n < 10; n++) await startFrom(new TestAgent(ctx.app), '198.51.100.7', email);
      const owner = new TestAgent(ctx.app);
      await startFrom(owner, '203.0.113.10', email);
      expect(await codeCount(email)).toBe(CODES_PER_ADDRESS_PER_CLIENT_PER_HOUR + 1);
      const check = await owner.post('/api/verify/check/', {
        email,
        code: await latestCodeFor(ctx.db.kysely, email),
      });
      expect(check.status).toBe(200);
    });

    it('caps an address over all clients, and still resends to a browser holding a live code', async () => {
      const email = 'target@north.edu';
      const owner = new TestAgent(ctx.app);
      await startFrom(owner, '203.0.113.10', email);
      // Strangers from many addresses spend the rest of the hour's ceiling.
      for (let client = 1; client <= 10; client++)
        for (let n = 0; n < CODES_PER_ADDRESS_PER_CLIENT_PER_HOUR; n++)
          await startFrom(new TestAgent(ctx.app), `198.51.100.${client}`, email);
      expect(await codeCount(email)).toBe(CODES_PER_ADDRESS_PER_HOUR);
      await startFrom(new TestAgent(ctx.app), '198.51.100.99', email);
      expect(await codeCount(email), 'a new browser past the ceiling').toBe(CODES_PER_ADDRESS_PER_HOUR);

      // The owner's browser asks again (the first mail never came) and gets a fresh code.
      await startFrom(owner, '203.0.113.10', email);
      expect(await codeCount(email)).toBe(CODES_PER_ADDRESS_PER_HOUR + 1);
      const check = await owner.post('/api/verify/check/', {
        email,
        code: await latestCodeFor(ctx.db.kysely, email),
      });
      expect(check.status).toBe(200);
    });

    it('resends to one browser only a few times an hour', async () => {
      const agent = new TestAgent(ctx.app);
      for (let n = 0; n < CODES_PER_ADDRESS_PER_BROWSER_PER_HOUR + 2; n++)
        await startFrom(agent, `198.51.100.${n + 1}`, 'again@north.edu');
      expect(await codeCount('again@north.edu')).toBe(CODES_PER_ADDRESS_PER_BROWSER_PER_HOUR);
    });

    it('mails an address that has an account at most a few times a day, however often it is registered', async () => {
      for (let n = 0; n < ACCOUNT_EXISTS_MAILS_PER_DAY + 3; n++) {
        const response = await new TestAgent(ctx.app).request({
          method: 'POST',
          url: '/api/register/',
          payload: {
            institution_name: 'North University',
            name: 'Not The Owner',
            email: cast.studentA.email,
            password: 'a-long-enough-passphrase',
            confirm_password: 'a-long-enough-passphrase',
          },
          remoteAddress: `198.51.100.${n + 1}`,
        });
        expect(response.status).toBe(201);
      }
      expect(await codeCount(cast.studentA.email)).toBe(ACCOUNT_EXISTS_MAILS_PER_DAY);
    });

    it('limits one client address across many addresses, sending nothing past the limit', async () => {
      const limit = ctx.config.limits.verificationsPerIpPerMinute;
      for (let n = 0; n < limit; n++) {
        const response = await new TestAgent(ctx.app).post('/api/verify/start/', {
          email: `spray${n}@north.edu`,
        });
        expect(response.status).toBe(200);
      }
      const past = await new TestAgent(ctx.app).post('/api/verify/start/', { email: 'one.more@north.edu' });
      expect(past.status).toBe(429);
      expect(await codeCount('one.more@north.edu')).toBe(0);
      const check = await new TestAgent(ctx.app).post('/api/verify/check/', {
        email: 'a@north.edu',
        code: '123456',
      });
      expect(check.status, 'code checks have a budget of their own').toBe(400);
    });

    it('keeps only a keyed hash of the code, and the mail carries the code and nothing of any answer', async () => {
      const agent = new TestAgent(ctx.app);
      expect((await submit(agent, 'Una', 'una@north.edu', '5')).status).toBe(200);
      await agent.post('/api/verify/start/', { email: 'una@north.edu', hash_link: hashLink });
      const code = await latestCodeFor(ctx.db.kysely, 'una@north.edu');
      const stored = await ctx.db.kysely
        .selectFrom('verification_codes')
        .selectAll()
        .executeTakeFirstOrThrow();
      expect(stored.code_hash).toMatch(/^[0-9a-f]{64}$/);
      expect(stored.code_hash).not.toContain(code);
      const mail = await ctx.db.kysely.selectFrom('mail_outbox').selectAll().executeTakeFirstOrThrow();
      expect(`${mail.subject}\n${mail.body}`).not.toMatch(/risk|urgent|elevated|tier|very poor/i);
    });
  });

  describe('POST /api/verify/check/', () => {
    async function started(email: string) {
      const agent = new TestAgent(ctx.app);
      await agent.post('/api/verify/start/', { email, hash_link: hashLink });
      return { agent, code: await latestCodeFor(ctx.db.kysely, email) };
    }
    const check = (agent: TestAgent, email: string, code: string) =>
      agent.post('/api/verify/check/', { email, code });

    it('accepts the right code once', async () => {
      const { agent, code } = await started('ann@north.edu');
      const first = await check(agent, 'ann@north.edu', code);
      expect(first.status).toBe(200);
      expect(first.body).toMatchObject({ success: true, account_ready: false });
      expect((await check(agent, 'ann@north.edu', code)).body).toEqual({
        success: false,
        code: 'BAD_REQUEST',
        message: CODE_REFUSED,
      });
    });

    it(`refuses the right code after ${CODE_TRIES} wrong ones`, async () => {
      const { agent, code } = await started('ann@north.edu');
      const wrong = code === '111111' ? '222222' : '111111';
      for (let n = 0; n < CODE_TRIES; n++)
        expect((await check(agent, 'ann@north.edu', wrong)).status).toBe(400);
      expect((await check(agent, 'ann@north.edu', code)).status).toBe(400);
    });

    it('refuses a code after 10 minutes', async () => {
      vi.useFakeTimers({ toFake: ['Date'] });
      try {
        const { agent, code } = await started('ann@north.edu');
        vi.setSystemTime(Date.now() + 10 * MINUTE + 1);
        expect((await check(agent, 'ann@north.edu', code)).status).toBe(400);
      } finally {
        vi.useRealTimers();
      }
    });

    it('refuses a code in another browser, and bad input with a clear 400', async () => {
      const { code } = await started('ann@north.edu');
      expect((await check(new TestAgent(ctx.app), 'ann@north.edu', code)).status).toBe(400);
      const agent = new TestAgent(ctx.app);
      for (const body of [{ email: 'ann@north.edu', code: '12345' }, { email: 'ann', code: '123456' }, {}]) {
        const response = await agent.post('/api/verify/check/', body);
        expect(response.status).toBe(400);
        expect(response.body).toMatchObject({ success: false });
      }
    });
  });

  describe('a shared link cannot change what staff see about a student (attack 1)', () => {
    it('neither clears nor plants a flag nor renames anyone without the proven address', async () => {
      // Ursula proved her address and answered urgently: she is listed for outreach.
      const ursula = new TestAgent(ctx.app);
      await proveAddress(ursula, ctx.db.kysely, 'ursula@north.edu', hashLink);
      expect((await submit(ursula, 'Ursula Urgent', 'ursula@north.edu', '5')).status).toBe(200);
      const listed = await dashboard();
      expect(listed.flagged_students).toEqual([['Ursula Urgent', 'ursula@north.edu']]);

      // Anyone else with the link: all "1" (would clear), then a new name and "5" (would rename).
      const attacker = new TestAgent(ctx.app);
      const calm = await submit(attacker, 'Ursula Urgent', 'ursula@north.edu', '1');
      expect(calm.body).toMatchObject({ success: true, verification_required: true });
      const renamed = await submit(attacker, 'Renamed By Attacker', 'ursula@north.edu', '5');
      expect(renamed.body).toMatchObject({ verification_required: true });
      expect(renamed.body).toHaveProperty('crisis_resources');
      // Nor can anyone plant a flag on a student who never answered.
      await submit(attacker, 'Planted Flag', cast.studentA.email, '5');

      const after = await dashboard();
      expect(after.flagged_students).toEqual([['Ursula Urgent', 'ursula@north.edu']]);
      // Staff still see the unproven urgent answers, apart, newest first.
      expect(after.unverified_flagged.map((answer) => [answer.name, answer.email, answer.tier])).toEqual([
        ['Planted Flag', cast.studentA.email, 'urgent'],
        ['Renamed By Attacker', 'ursula@north.edu', 'urgent'],
      ]);
      for (const key of [
        'num_responses',
        'num_flagged_students',
        'num_stable_students',
        'num_students',
      ] as const)
        expect(after[key]).toBe(listed[key]);
      const respondent = await ctx.db.kysely
        .selectFrom('respondents')
        .select('name')
        .where('email', '=', 'ursula@north.edu')
        .executeTakeFirstOrThrow();
      expect(respondent.name).toBe('Ursula Urgent');
      // Kept and screened all the same.
      const stored = await ctx.db.kysely
        .selectFrom('submissions')
        .select(['student_name', 'tier', 'verified_at'])
        .where('verified_at', 'is', null)
        .orderBy('id')
        .execute();
      expect(stored.map((row) => [row.student_name, row.tier])).toEqual([
        ['Ursula Urgent', 'none'],
        ['Renamed By Attacker', 'urgent'],
        ['Planted Flag', 'urgent'],
      ]);

      // Ursula proving her address again from her own browser does not promote what others sent.
      await proveAddress(ursula, ctx.db.kysely, 'ursula@north.edu', hashLink);
      expect((await dashboard()).flagged_students).toEqual([['Ursula Urgent', 'ursula@north.edu']]);
      const kept = await rollupSnapshot(ctx.db.kysely, cast.a.id);
      await rebuildDashboardRollups(ctx.db.kysely, cast.a.id);
      expect(await rollupSnapshot(ctx.db.kysely, cast.a.id)).toEqual(kept);
    });

    it('counts the answers once their sender proves the address, as a rebuild would', async () => {
      const vic = new TestAgent(ctx.app);
      expect((await submit(vic, 'Vic Later', 'vic@north.edu', '5')).body).toMatchObject({
        verification_required: true,
      });
      expect((await dashboard()).num_responses).toBe(0);
      await vic.post('/api/verify/start/', { email: 'vic@north.edu', hash_link: hashLink });
      await vic.post('/api/verify/check/', {
        email: 'vic@north.edu',
        code: await latestCodeFor(ctx.db.kysely, 'vic@north.edu'),
        proof_tokens: vic.proofTokens,
      });
      const promoted = await dashboard();
      expect(promoted).toMatchObject({
        num_responses: 1,
        num_flagged_students: 1,
        flagged_students: [['Vic Later', 'vic@north.edu']],
      });
      const kept = await rollupSnapshot(ctx.db.kysely, cast.a.id);
      await rebuildDashboardRollups(ctx.db.kysely, cast.a.id);
      expect(await rollupSnapshot(ctx.db.kysely, cast.a.id)).toEqual(kept);
      // Once proven, the browser's next answer counts at once.
      expect((await submit(vic, 'Vic Later', 'vic@north.edu', '1')).body).not.toHaveProperty(
        'verification_required',
      );
      expect((await dashboard()).num_flagged_students).toBe(0);
    });
  });
});

describe.each(TEST_DIALECTS)('a visitor id planted in a student’s browser on %s', (dialect) => {
  let ctx: TestContext;
  let cast: Awaited<ReturnType<typeof makeTwoInstitutions>>;
  let hashLink: string;
  let questions: SurveyQuestion[];
  /** His browser and hers, carrying the same visitor id: he planted his in hers. */
  let his: TestAgent;
  let hers: TestAgent;
  const planted = 'p'.repeat(43);

  beforeEach(async () => {
    ctx = await createTestApp(dialect);
    cast = await makeTwoInstitutions(ctx.db.kysely);
    const link = await ctx.db.kysely
      .selectFrom('survey_templates')
      .select('hash_link')
      .where('institution_id', '=', cast.a.id)
      .executeTakeFirstOrThrow();
    hashLink = link.hash_link;
    questions = (
      await new TestAgent(ctx.app).get<{ questions: SurveyQuestion[] }>(
        `/api/get-user-survey-questions/${hashLink}/`,
      )
    ).body.questions;
    his = new TestAgent(ctx.app);
    hers = new TestAgent(ctx.app);
    his.jar.set('visitorid', planted);
    hers.jar.set('visitorid', planted);
  });
  afterEach(async () => {
    await ctx.close();
  });

  const submit = (agent: TestAgent, name: string, email: string) =>
    agent.post(`/api/survey/link/${hashLink}/`, {
      student_name: name,
      school_email: email,
      answers: answersAll(questions, '3'),
    });

  it('gives her browser a new id with her proof, so his copy of the old one proves nothing', async () => {
    await proveAddress(hers, ctx.db.kysely, cast.studentA.email, hashLink);
    expect(hers.jar.get('visitorid')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(hers.jar.get('visitorid')).not.toBe(planted);

    // Her own browser, with its new id, counts as proven.
    expect((await submit(hers, 'Sam North', cast.studentA.email)).status).toBe(200);
    // He answers in her name with his copy: it waits for a proof, and renames nobody.
    expect((await submit(his, 'Someone Else', cast.studentA.email)).status).toBe(200);
    const rows = await ctx.db.kysely
      .selectFrom('submissions')
      .innerJoin('respondents', 'respondents.id', 'submissions.respondent_id')
      .select(['submissions.verified_at', 'respondents.name'])
      .where('respondents.email', '=', cast.studentA.email)
      .orderBy('submissions.id')
      .execute();
    expect(rows).toEqual([
      { verified_at: expect.any(Number), name: 'Sam North' },
      { verified_at: null, name: 'Sam North' },
    ]);
  });

  it('promotes with her proof only the answers her own tab sent, not his sent in her name under the planted id', async () => {
    const email = cast.studentA.email;
    // Before she proves anything, he answers twice in her name with the id he planted in her browser.
    expect((await submit(his, 'Sam North', email)).body).toMatchObject({ verification_required: true });
    expect((await submit(his, 'Sam North', email)).body).toMatchObject({ verification_required: true });
    // She answers once herself, from her browser, and proves her address there.
    expect((await submit(hers, 'Sam North', email)).body).toMatchObject({ verification_required: true });
    expect(hers.proofTokens).toHaveLength(1);
    await proveAddress(hers, ctx.db.kysely, email, hashLink);
    const rows = await ctx.db.kysely
      .selectFrom('submissions')
      .select(['id', 'verified_at'])
      .where('school_email', '=', email)
      .orderBy('id')
      .execute();
    expect(rows.map((row) => row.verified_at !== null)).toEqual([false, false, true]);
    // Only her answer counts for her on the dashboard.
    const dashboardNow = async () => {
      const admin = new TestAgent(ctx.app);
      await admin.login(cast.adminA.email, TEST_PASSWORD);
      return (await admin.get<DashboardData>('/api/dashboard/')).body;
    };
    expect((await dashboardNow()).num_responses).toBe(1);
  });

  it('gives a retried unproven submission a new secret, which its proof then needs', async () => {
    const email = 'rita@north.edu';
    const body = {
      student_name: 'Rita Retry',
      school_email: email,
      answers: answersAll(questions, '3'),
      submission_id: 'c0ffee00-0000-4000-8000-000000000001',
    };
    const first = await hers.post(`/api/survey/link/${hashLink}/`, body);
    const retry = await hers.post(`/api/survey/link/${hashLink}/`, body);
    expect(retry.body).toMatchObject({ verification_required: true, proof_token: expect.any(String) });
    expect(retry.body.proof_token).not.toBe(first.body.proof_token);
    // The first answer never reached the tab: only the retry's secret is kept.
    hers.proofTokens.splice(0, hers.proofTokens.length, retry.body.proof_token as string);
    await proveAddress(hers, ctx.db.kysely, email, hashLink);
    const rows = await ctx.db.kysely
      .selectFrom('submissions')
      .select('verified_at')
      .where('school_email', '=', email)
      .execute();
    expect(rows.map((row) => row.verified_at !== null)).toEqual([true]);
  });

  it('refuses more proof tokens than a tab could hold, and tokens that are not text, with a clear 400', async () => {
    for (const proof_tokens of [Array.from({ length: 21 }, () => 'x'), [42], 'x', ['y'.repeat(65)]]) {
      const response = await hers.post('/api/verify/check/', {
        email: cast.studentA.email,
        code: '123456',
        proof_tokens,
      });
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ success: false });
    }
  });

  it('names no student record after what an unproven sender claims; her registration names it', async () => {
    const victim = 'nia@north.edu';
    const stranger = new TestAgent(ctx.app);
    expect((await submit(stranger, 'Invented Name', victim)).status).toBe(200);
    const nameOfRecord = async () =>
      (
        await ctx.db.kysely
          .selectFrom('respondents')
          .select('name')
          .where('email', '=', victim)
          .executeTakeFirstOrThrow()
      ).name;
    expect(await nameOfRecord()).toBe(UNCONFIRMED_NAME);
    // The claimed name stays with the submission alone.
    const stored = await ctx.db.kysely
      .selectFrom('submissions')
      .select('student_name')
      .where('school_email', '=', victim)
      .executeTakeFirstOrThrow();
    expect(stored.student_name).toBe('Invented Name');
    await registerProven(new TestAgent(ctx.app), ctx.db.kysely, {
      institution_name: 'North University',
      name: 'Nia Real',
      email: victim,
      password: 'her-own-Pa55phrase-x',
    });
    expect(await nameOfRecord()).toBe('Nia Real');
  });

  it('never turns his waiting registration of her address into her account when she proves it for a survey', async () => {
    const victim = 'victim@north.edu';
    const registered = await his.post('/api/register/', {
      institution_name: 'North University',
      name: 'Vic Tim',
      email: victim,
      password: 'his-own-Pa55phrase-x',
      confirm_password: 'his-own-Pa55phrase-x',
    });
    expect(registered.status).toBe(201);
    // She answers the survey and proves her address with the code the survey sent her.
    expect((await submit(hers, 'Vic Tim', victim)).status).toBe(200);
    const check = await proveAddress(hers, ctx.db.kysely, victim, hashLink);
    expect(check.body).toMatchObject({ account_ready: false });
    expect(
      await ctx.db.kysely.selectFrom('users').select('id').where('email', '=', victim).execute(),
    ).toEqual([]);
    // His password still opens nothing: the registration waits for a code only the address receives.
    const login = await his.post('/api/login/', { email: victim, password: 'his-own-Pa55phrase-x' });
    expect(login.status).toBe(403);
    expect(login.body).toMatchObject({ code: 'ADDRESS_UNCONFIRMED' });
    expect((await his.get('/api/user/')).status).toBe(401);
  });
});
