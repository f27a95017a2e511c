import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createTestApp, TestAgent, type TestContext } from '../../../../test/helpers/app';
import { campaignRequest } from '../../../../test/helpers/campaigns';
import { TEST_DIALECTS } from '../../../../test/helpers/databases';
import { expectError } from '../../../../test/helpers/errors';
import { makeTwoInstitutions, makeUser } from '../../../../test/helpers/factories';
import { INSTRUMENTS } from '../../../common/instruments';
import { answersAll, answersSumming } from '../../../common/instruments/test-answers';
import type {
  AnonymousResultsResponse,
  Campaign,
  NotAnsweredResponse,
} from '../../../common/schemas/campaigns';
import type { CaseDetailResponse } from '../../../common/schemas/cases';
import {
  isSurveyInstrument,
  type SubmitSurveyResponse,
  type SurveyEntry,
  type SurveyQuestion,
} from '../../../common/schemas/surveys';
import { DAY, HOUR } from '../../lib/time';
import { CONTACT_OFFER_GONE } from './anonymous';
import { NOT_ANONYMOUS } from './results';
import { INVITATION_USED } from './service';

/** Monday 23 November 2026, 13:00 UTC. */
const MONDAY = Date.UTC(2026, 10, 23, 13);
const URGENT_TEXT = 'I want to kill myself';

const ROSTER = [
  'name,email,group',
  'Ann Lee,ann@north.edu,Year 1',
  'Bo Chen,bo@north.edu,Year 1',
  'Cy Dunn,cy@north.edu,Year 1',
  'Dee Ray,dee@north.edu,Year 1',
].join('\n');

/** Everything a student could be known by in these tests: none may sit beside an anonymous answer. */
const IDENTIFYING = ['ann@north.edu', 'Ann Lee', '127.0.0.1'];

describe.each(TEST_DIALECTS)('anonymous campaigns on %s', (dialect) => {
  let ctx: TestContext;
  let cast: Awaited<ReturnType<typeof makeTwoInstitutions>>;
  let templateId: number;

  beforeEach(async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(MONDAY);
    ctx = await createTestApp(dialect);
    cast = await makeTwoInstitutions(ctx.db.kysely);
    const admin = await adminNow();
    const upload = await admin.request({
      method: 'POST',
      url: '/api/roster/',
      payload: ROSTER,
      headers: { 'content-type': 'text/csv' },
    });
    expect(upload.status, upload.text).toBe(200);
    const template = await ctx.db.kysely
      .selectFrom('active_templates')
      .select('template_id')
      .where('institution_id', '=', cast.a.id)
      .executeTakeFirstOrThrow();
    templateId = template.template_id;
  });
  afterEach(async () => {
    await ctx.close();
    vi.useRealTimers();
  });

  const adminNow = async () => {
    const agent = new TestAgent(ctx.app);
    await agent.signInDirectly(ctx.db, cast.adminA.email);
    return agent;
  };
  /** An anonymous campaign of Year 1, sent now; the link of each student by address. */
  const sendAnonymous = async (anonymous = true) => {
    const created = await (await adminNow()).post<{ campaign: Campaign }>(
      '/api/campaigns/',
      campaignRequest(templateId, ['Year 1'], { send_now: true, anonymous }),
    );
    expect(created.status, created.text).toBe(201);
    expect(created.body.campaign.anonymous).toBe(anonymous);
    await ctx.app.jobs.runDue();
    const mails = await ctx.db.kysely.selectFrom('mail_outbox').select(['to_address', 'body']).execute();
    const tokens = new Map<string, string>();
    for (const mail of mails) {
      const match = mail.body.match(/\/survey\/invite\/([A-Za-z0-9_-]+)\//);
      if (match?.[1]) tokens.set(mail.to_address, match[1]);
    }
    return { campaign: created.body.campaign, tokens };
  };
  const answersOf = async (token: string, agent: TestAgent, text: string) => {
    const survey = await agent.get<{ questions: SurveyQuestion[]; anonymous: boolean; student_name: string }>(
      `/api/survey/invite/${token}/`,
    );
    expect(survey.status, survey.text).toBe(200);
    return {
      survey: survey.body,
      answers: Object.fromEntries(
        survey.body.questions.map((question) => [
          String(question.id),
          question.question_type === 'text' ? text : question.category === 'safety' ? '1' : '2',
        ]),
      ),
    };
  };
  const answer = async (token: string, text = 'Fine.', agent = new TestAgent(ctx.app)) => {
    const { answers } = await answersOf(token, agent, text);
    return agent.post<SubmitSurveyResponse>(`/api/survey/invite/${token}/`, { answers });
  };
  const rowsOf = (table: 'submissions' | 'respondents' | 'answers' | 'drafts' | 'cases' | 'case_events') =>
    ctx.db.kysely.selectFrom(table).selectAll().execute();

  it('stores the answers with nothing that names the student, and uses the link up once', async () => {
    const { tokens } = await sendAnonymous();
    const token = tokens.get('ann@north.edu') as string;
    const agent = new TestAgent(ctx.app);
    const { survey, answers: given } = await answersOf(token, agent, URGENT_TEXT);
    const auditBefore = await ctx.db.kysely.selectFrom('audit_log').select('id').execute();
    // The screen is not told whom the link was sent to.
    expect(survey).toMatchObject({ anonymous: true, student_name: '', school_email: '' });
    vi.setSystemTime(MONDAY + 3 * HOUR + 17_000);
    const sent = await answer(token, URGENT_TEXT, agent);
    expect(sent.status, sent.text).toBe(200);
    // The crisis help shows at once, as for any urgent answer; and the offer to be contacted.
    expect(sent.body.crisis_resources).toBeDefined();
    expect(sent.body.contact_token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(sent.body.verification_required).toBeUndefined();

    // No student record, submission, case or alert: nothing that names anyone.
    for (const table of ['submissions', 'respondents', 'answers', 'drafts', 'cases', 'case_events'] as const)
      expect(await rowsOf(table), table).toEqual([]);
    const stored = await ctx.db.kysely.selectFrom('anonymous_submissions').selectAll().execute();
    expect(stored).toHaveLength(1);
    expect(Object.keys(stored[0] ?? {}).sort()).toEqual(
      [
        'campaign_id',
        'id',
        'institution_id',
        'lexicon_version',
        'likert_mean',
        'retry_key',
        'sent_on',
        'template_id',
        'tier',
      ].sort(),
    );
    // Sent without a submission id: nothing to know a resend by.
    expect(stored[0]?.retry_key).toBeNull();
    // The day only, never the time.
    expect(Number(stored[0]?.sent_on)).toBe(MONDAY - (MONDAY % DAY));
    expect(stored[0]?.tier).toBe('urgent');
    const answers = await ctx.db.kysely.selectFrom('anonymous_answers').selectAll().execute();
    const offers = await ctx.db.kysely.selectFrom('contact_offers').selectAll().execute();
    // Answering writes no audit row (the admin's own rows above carry the admin's address).
    const audit = await ctx.db.kysely
      .selectFrom('audit_log')
      .selectAll()
      .where(
        'id',
        'not in',
        auditBefore.map((row) => row.id),
      )
      .execute();
    expect(audit).toEqual([]);
    const outbox = await ctx.db.kysely
      .selectFrom('mail_outbox')
      .selectAll()
      .where('body', 'not like', '%/survey/invite/%')
      .execute();
    const jobs = await ctx.db.kysely.selectFrom('jobs').selectAll().execute();
    const written = JSON.stringify({ stored, answers, offers, audit, outbox, jobs });
    for (const word of IDENTIFYING) expect(written).not.toContain(word);
    expect(outbox).toEqual([]);
    // The invitation is marked used with the time it was sent, not the time it was answered.
    const invitation = await ctx.db.kysely
      .selectFrom('campaign_invitations as i')
      .innerJoin('roster_students as rs', 'rs.id', 'i.student_id')
      .select(['i.invited_at', 'i.answered_at'])
      .where('rs.email', '=', 'ann@north.edu')
      .executeTakeFirstOrThrow();
    expect(Number(invitation.answered_at)).toBe(Number(invitation.invited_at));

    // Once per round.
    expectError(
      await new TestAgent(ctx.app).post(`/api/survey/invite/${token}/`, { answers: given }),
      409,
      'CONFLICT',
      INVITATION_USED,
    );
    expect(await ctx.db.kysely.selectFrom('anonymous_submissions').selectAll().execute()).toHaveLength(1);
  });

  it('answers a resend of the same submission as the first time, storing nothing new; any other submission on a used link is refused', async () => {
    const { tokens } = await sendAnonymous();
    const token = tokens.get('ann@north.edu') as string;
    const tab = new TestAgent(ctx.app);
    const { answers } = await answersOf(token, tab, URGENT_TEXT);
    const body = { answers, submission_id: 'tab-one-5f0c1d2e' };
    const first = await tab.post<SubmitSurveyResponse>(`/api/survey/invite/${token}/`, body);
    expect(first.status, first.text).toBe(200);
    const storedBefore = await ctx.db.kysely.selectFrom('anonymous_answers').selectAll().execute();

    // The reply was lost: the tab sends the same submission again, and gets what the first
    // answer said (the crisis help included), with the offer under a new token.
    vi.setSystemTime(MONDAY + 10 * 60_000);
    const again = await tab.post<SubmitSurveyResponse>(`/api/survey/invite/${token}/`, body);
    expect(again.status, again.text).toBe(200);
    const { contact_token: firstToken, ...firstReply } = first.body;
    const { contact_token: againToken, ...againReply } = again.body;
    expect(againReply).toEqual(firstReply);
    expect(againReply.crisis_resources).toBeDefined();
    expect(againToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(againToken).not.toBe(firstToken);
    expect(await ctx.db.kysely.selectFrom('anonymous_submissions').selectAll().execute()).toHaveLength(1);
    expect(await ctx.db.kysely.selectFrom('anonymous_answers').selectAll().execute()).toEqual(storedBefore);
    // One offer still, under the token the tab now holds.
    expectError(
      await tab.post('/api/survey/contact/', { contact_token: firstToken, phone: '+1 555 0100' }),
      404,
      'NOT_FOUND',
      CONTACT_OFFER_GONE,
    );
    const asked = await tab.post('/api/survey/contact/', { contact_token: againToken, phone: '+1 555 0100' });
    expect(asked.status, asked.text).toBe(200);
    // Once the offer is used (or past its hour), a resend still gets the reply, without an offer.
    const late = await tab.post<SubmitSurveyResponse>(`/api/survey/invite/${token}/`, body);
    expect(late.status, late.text).toBe(200);
    expect(late.body).toEqual(firstReply);

    // Another submission on the used link, or one with no id, is refused as before.
    for (const other of [{ answers, submission_id: 'tab-two-9a8b7c6d' }, { answers }])
      expectError(
        await new TestAgent(ctx.app).post(`/api/survey/invite/${token}/`, other),
        409,
        'CONFLICT',
        INVITATION_USED,
      );
    // The same id from another student's link is that student's own, new answer.
    const bo = tokens.get('bo@north.edu') as string;
    const other = await new TestAgent(ctx.app).post(`/api/survey/invite/${bo}/`, {
      answers: (await answersOf(bo, new TestAgent(ctx.app), 'Fine.')).answers,
      submission_id: body.submission_id,
    });
    expect(other.status, other.text).toBe(200);
    expect(other.body.crisis_resources).toBeUndefined();
    const stored = await ctx.db.kysely.selectFrom('anonymous_submissions').selectAll().execute();
    expect(stored).toHaveLength(2);

    // Nothing stored holds the tab's id or ties the answer to its invitation: the key is a hash
    // of the link and the id, neither of which is kept.
    expect(new Set(stored.map((row) => row.retry_key)).size).toBe(2);
    const invitations = await ctx.db.kysely.selectFrom('campaign_invitations').selectAll().execute();
    const written = JSON.stringify({ stored, invitations });
    expect(written).not.toContain(body.submission_id);
    for (const row of stored) expect(JSON.stringify(invitations)).not.toContain(row.retry_key);
  });

  it('opens a case only when the student asks, with exactly what they shared', async () => {
    const { tokens } = await sendAnonymous();
    const sent = await answer(tokens.get('ann@north.edu') as string, URGENT_TEXT);
    const contactToken = sent.body.contact_token as string;
    const visitor = new TestAgent(ctx.app);

    // One way of contact at least.
    expectError(
      await visitor.post('/api/survey/contact/', { contact_token: contactToken, name: 'A' }),
      400,
      'VALIDATION_FAILED',
      'Give an email address or a phone number, so a counsellor can reach you',
    );
    const asked = await visitor.post('/api/survey/contact/', {
      contact_token: contactToken,
      name: 'Annie',
      phone: '+1 555 0100',
    });
    expect(asked.status, asked.text).toBe(200);
    // The offer is used once.
    expectError(
      await visitor.post('/api/survey/contact/', { contact_token: contactToken, phone: '+1 555 0100' }),
      404,
      'NOT_FOUND',
      CONTACT_OFFER_GONE,
    );

    const cases = await rowsOf('cases');
    expect(cases).toHaveLength(1);
    expect(cases[0]).toMatchObject({ tier: 'urgent', verified_at: null });
    const contacts = await ctx.db.kysely.selectFrom('case_contacts').selectAll().execute();
    expect(contacts).toEqual([
      expect.objectContaining({
        case_id: cases[0]?.id,
        name: 'Annie',
        email: null,
        phone: '+1 555 0100',
        tier: 'urgent',
        answers: null,
      }),
    ]);
    // Urgent: the alert contacts are told at once; the mail names no one.
    const detail = await (await adminNow()).get<CaseDetailResponse>(`/api/cases/${cases[0]?.id}/`);
    expect(detail.status, detail.text).toBe(200);
    expect(detail.body.case.contacts).toEqual([
      {
        name: 'Annie',
        email: null,
        phone: '+1 555 0100',
        tier: 'urgent',
        answers: null,
        asked_at: new Date(MONDAY).toISOString(),
      },
    ]);
    expect(detail.body.case.submissions).toEqual([]);
    expect(detail.body.case.events.map((event) => event.kind)).toContain('contact_asked');
    // The anonymous answer stays apart: nothing about the case sits with it.
    const written = JSON.stringify(
      await ctx.db.kysely.selectFrom('anonymous_submissions').selectAll().execute(),
    );
    expect(written).not.toContain('Annie');
    expect(await ctx.db.kysely.selectFrom('contact_offers').selectAll().execute()).toEqual([]);
    // Not the roster student behind the link either: only the details given.
    expect(JSON.stringify(await rowsOf('respondents'))).not.toContain('ann@north.edu');
  });

  it('shares the answers with the counsellor only when the student agrees', async () => {
    const { tokens } = await sendAnonymous();
    const sent = await answer(tokens.get('bo@north.edu') as string, 'A hard week.');
    const asked = await new TestAgent(ctx.app).post('/api/survey/contact/', {
      contact_token: sent.body.contact_token,
      email: 'Someone@Example.org',
      share_answers: true,
    });
    expect(asked.status, asked.text).toBe(200);
    const contact = await ctx.db.kysely.selectFrom('case_contacts').selectAll().executeTakeFirstOrThrow();
    expect(contact).toMatchObject({ name: null, email: 'someone@example.org', phone: null, tier: 'none' });
    const shared = JSON.parse(contact.answers as string) as { question: string; answer: string }[];
    expect(shared.map((item) => item.answer)).toContain('A hard week.');
    // A calm answer asking for contact is followed up as an elevated one, and alerts no one at once.
    expect((await rowsOf('cases'))[0]).toMatchObject({ tier: 'elevated' });
  });

  it('gives counts but no names of who has not answered', async () => {
    const { campaign, tokens } = await sendAnonymous();
    expect((await answer(tokens.get('ann@north.edu') as string)).status).toBe(200);
    const listed = await (await adminNow()).get<NotAnsweredResponse>(
      `/api/campaigns/${campaign.id}/not-answered/`,
    );
    expect(listed.status, listed.text).toBe(200);
    expect(listed.body).toMatchObject({ invited: 4, not_answered: 3, campaign: { anonymous: true } });
    expect(listed.body.students).toBeUndefined();
    expect(listed.text).not.toContain('north.edu');
  });

  it('shows results only as figures over enough students, to every role', async () => {
    const { campaign, tokens } = await sendAnonymous();
    const url = `/api/campaigns/${campaign.id}/results/`;
    expect((await answer(tokens.get('ann@north.edu') as string, URGENT_TEXT)).status).toBe(200);
    const one = await (await adminNow()).get<AnonymousResultsResponse>(url);
    expect(one.status, one.text).toBe(200);
    const hidden = { suppressed: true, fewer_than: 5 };
    expect(one.body).toMatchObject({
      threshold: 5,
      answered: 1,
      tiers: { none: hidden, monitor: hidden, elevated: hidden, urgent: hidden },
    });
    expect(one.body.questions.length).toBeGreaterThan(0);
    for (const question of one.body.questions) expect(question.mean).toEqual(hidden);
    // No written answer, ever.
    expect(one.text).not.toContain(URGENT_TEXT);

    for (const email of ['bo@north.edu', 'cy@north.edu', 'dee@north.edu'])
      expect((await answer(tokens.get(email) as string)).status).toBe(200);
    await ctx.db.kysely
      .updateTable('institutions')
      .set({ small_group_threshold: 3 })
      .where('id', '=', cast.a.id)
      .execute();
    const viewer = await makeUser(ctx.db.kysely, {
      email: 'viewer@north.edu',
      role: 'viewer',
      institutionId: cast.a.id,
    });
    const viewerAgent = new TestAgent(ctx.app);
    await viewerAgent.signInDirectly(ctx.db, viewer.email);
    const four = await viewerAgent.get<AnonymousResultsResponse>(url);
    expect(four.status, four.text).toBe(200);
    expect(four.body.answered).toBe(4);
    // Three calm answers and one urgent: the one urgent is hidden, and enough with it.
    expect(four.body.tiers.urgent).toEqual({ suppressed: true, fewer_than: 3 });
    expect(four.body.tiers.none).toEqual({ suppressed: true, fewer_than: 3 });
    for (const question of four.body.questions) expect(typeof question.mean).toBe('number');

    // A campaign that is not anonymous has its answers on the dashboard, not here.
    const identified = await sendAnonymous(false);
    expectError(
      await (await adminNow()).get(`/api/campaigns/${identified.campaign.id}/results/`),
      404,
      'NOT_FOUND',
      NOT_ANONYMOUS,
    );
  });

  it('counts the answers to an instrument block per band, hidden under the same rule', async () => {
    const admin = await adminNow();
    const added = await admin.post(`/api/survey-templates/${templateId}/instruments/`, {
      instrument_id: 'phq9',
      order: 50,
    });
    expect(added.status, added.text).toBe(201);
    const { campaign, tokens } = await sendAnonymous();
    const token = tokens.get('ann@north.edu') as string;
    const visitor = new TestAgent(ctx.app);
    const survey = await visitor.get<{ questions: SurveyEntry[] }>(`/api/survey/invite/${token}/`);
    const minimal = answersAll(INSTRUMENTS.phq9.items, 0);
    const answers = Object.fromEntries(
      survey.body.questions.map((entry) => [
        String(entry.id),
        isSurveyInstrument(entry)
          ? minimal
          : entry.question_type === 'text'
            ? 'Fine.'
            : entry.category === 'safety'
              ? '1'
              : '2',
      ]),
    );
    expect((await visitor.post(`/api/survey/invite/${token}/`, { answers })).status).toBe(200);
    const url = `/api/campaigns/${campaign.id}/results/`;
    const [minimalBand, mildBand, moderateBand, ...severer] = INSTRUMENTS.phq9.bands.map(
      (band) => band.label,
    );
    const hidden = { suppressed: true, fewer_than: 5 };

    const one = await admin.get<AnonymousResultsResponse>(url);
    expect(one.status, one.text).toBe(200);
    expect(one.body.instruments).toEqual([
      {
        instrument_id: 'phq9',
        name: INSTRUMENTS.phq9.name,
        bands: INSTRUMENTS.phq9.bands.map((band) => ({
          scored_as: 'phq9',
          band: band.label,
          count: hidden,
        })),
      },
    ]);

    // Six minimal, five mild and five moderate: the empty bands alone would add up to fewer than
    // five, so the smallest shown band (mild, the first of two equal ones) is hidden with them.
    const stored = await ctx.db.kysely
      .selectFrom('anonymous_answers')
      .select(['question_id', 'question_text'])
      .where('question_type', '=', 'instrument')
      .executeTakeFirstOrThrow();
    const answerAs = async (items: Record<string, number | string>) => {
      const row = await ctx.db.kysely
        .insertInto('anonymous_submissions')
        .values({
          institution_id: cast.a.id,
          campaign_id: campaign.id,
          template_id: templateId,
          tier: 'none',
          likert_mean: 2,
          lexicon_version: null,
          sent_on: MONDAY - (MONDAY % DAY),
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await ctx.db.kysely
        .insertInto('anonymous_answers')
        .values({
          submission_id: row.id,
          question_id: stored.question_id,
          question_text: stored.question_text,
          question_type: 'instrument',
          category: null,
          value: JSON.stringify(items),
        })
        .execute();
    };
    for (let n = 0; n < 5; n++) await answerAs(minimal);
    for (const total of [7, 11]) {
      const items = answersSumming(INSTRUMENTS.phq9.items, INSTRUMENTS.phq9.scale, total);
      for (let n = 0; n < 5; n++) await answerAs(items);
    }
    const many = await admin.get<AnonymousResultsResponse>(url);
    expect(many.body.instruments[0]?.bands).toEqual([
      { scored_as: 'phq9', band: minimalBand, count: 6 },
      { scored_as: 'phq9', band: mildBand, count: hidden },
      { scored_as: 'phq9', band: moderateBand, count: 5 },
      ...severer.map((band) => ({ scored_as: 'phq9', band, count: hidden })),
    ]);
    // Nothing of any one answer's items is given.
    expect(many.text).not.toContain('phq9_1');
  });
  it('shows a personal or anonymous link in the language asked for, and records the language of each answer', async () => {
    const first = await ctx.db.kysely
      .selectFrom('questions')
      .select(['id'])
      .where('template_id', '=', templateId)
      .orderBy('position')
      .orderBy('id')
      .executeTakeFirstOrThrow();
    const translated = await (await adminNow()).request({
      method: 'PUT',
      url: `/api/survey-templates/${templateId}/questions/${first.id}/translations/es/`,
      payload: { question_text: '¿Cómo te sientes en general?' },
    });
    expect(translated.status, translated.text).toBe(200);

    for (const anonymous of [true, false]) {
      const { tokens } = await sendAnonymous(anonymous);
      const token = tokens.get('bo@north.edu') as string;
      const agent = new TestAgent(ctx.app);
      const survey = await agent.get<{ questions: SurveyEntry[] }>(
        `/api/survey/invite/${token}/?language=es`,
      );
      expect(survey.status, survey.text).toBe(200);
      for (const entry of survey.body.questions) {
        expect(entry.language).toBe(entry.id === first.id ? 'es' : 'en');
      }
      expect(survey.body.questions.find((entry) => entry.id === first.id)).toMatchObject({
        text: '¿Cómo te sientes en general?',
      });
      const answers = Object.fromEntries(
        survey.body.questions.map((entry) => [
          String(entry.id),
          'question_type' in entry && entry.question_type === 'text' ? 'Bien.' : '2',
        ]),
      );
      const sent = await agent.post(`/api/survey/invite/${token}/`, { answers, language: 'es' });
      expect(sent.status, sent.text).toBe(200);
      const stored = await ctx.db.kysely
        .selectFrom(anonymous ? 'anonymous_answers' : 'answers')
        .select(['question_id', 'language'])
        .execute();
      expect(stored.length).toBeGreaterThan(1);
      for (const row of stored) expect(row.language).toBe(row.question_id === first.id ? 'es' : 'en');
    }
  });
});
