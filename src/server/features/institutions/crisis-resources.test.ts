import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, TestAgent, type TestContext } from '../../../../test/helpers/app';
import { TEST_DIALECTS } from '../../../../test/helpers/databases';
import { makeTwoInstitutions } from '../../../../test/helpers/factories';
import { ALWAYS_OPEN_CRISIS_LINES, alwaysOpenLinesFor } from '../../../common/risk/crisis-lines';
import type { InstitutionSettingsResponse } from '../../../common/schemas/settings';
import type { SubmitSurveyResponse, SurveyQuestion } from '../../../common/schemas/surveys';
import { CRISIS_LANGUAGE_UNKNOWN } from './settings';

/** The institution's own crisis resources: saved in settings, added to the always-open lines. */

const SETTINGS = {
  alert_emails: [],
  escalation_emails: [],
  urgent_ack_minutes: 60,
  elevated_ack_hours: 48,
  time_zone: 'UTC',
};

const HARBOR = {
  name: 'Harbor College Counselling Centre',
  description: 'Same-day appointments.',
  hours: 'weekdays 8am-6pm',
  phone: '(617) 555-0100',
};

describe.each(TEST_DIALECTS)('crisis resources in settings on %s', (dialect) => {
  let ctx: TestContext;
  let cast: Awaited<ReturnType<typeof makeTwoInstitutions>>;
  let admin: TestAgent;

  beforeEach(async () => {
    ctx = await createTestApp(dialect);
    cast = await makeTwoInstitutions(ctx.db.kysely);
    admin = new TestAgent(ctx.app);
    await admin.signInDirectly(ctx.db, cast.adminA.email);
  });
  afterEach(async () => {
    await ctx.close();
  });

  const put = (change: Record<string, unknown>) =>
    admin.request<InstitutionSettingsResponse>({
      method: 'PUT',
      url: '/api/institution/settings/',
      payload: { ...SETTINGS, crisis_resources: [], ...change },
    });
  const read = async () => (await admin.get<InstitutionSettingsResponse>('/api/institution/settings/')).body;
  const storedColumn = async () =>
    (
      await ctx.db.kysely
        .selectFrom('institutions')
        .select('crisis_resources')
        .where('id', '=', cast.a.id)
        .executeTakeFirstOrThrow()
    ).crisis_resources;
  const store = (value: string) =>
    ctx.db.kysely
      .updateTable('institutions')
      .set({ crisis_resources: value })
      .where('id', '=', cast.a.id)
      .execute();

  /** What a student answering "often" to the self-harm question is shown. */
  async function urgentHelp(headers: Record<string, string> = {}) {
    const link = await ctx.db.kysely
      .selectFrom('survey_templates')
      .select('hash_link')
      .where('institution_id', '=', cast.a.id)
      .executeTakeFirstOrThrow();
    const visitor = new TestAgent(ctx.app);
    const { questions } = (
      await visitor.get<{ questions: SurveyQuestion[] }>(`/api/get-user-survey-questions/${link.hash_link}/`)
    ).body;
    const answers = Object.fromEntries(
      questions.map((q) => [
        String(q.id),
        q.question_type === 'text' ? 'Fine.' : q.category === 'safety' ? '4' : '2',
      ]),
    );
    const response = await visitor.request<SubmitSurveyResponse>({
      method: 'POST',
      url: `/api/survey/link/${link.hash_link}/`,
      payload: { student_name: 'Robin Link', school_email: 'robin@north.edu', answers },
      headers,
    });
    expect(response.status).toBe(200);
    return response.body.crisis_resources;
  }

  it('starts with none of its own and the always-open lines alone for students', async () => {
    expect(await read()).toMatchObject({ crisis_resources: [], crisis_resources_first: false });
    expect(await urgentHelp()).toEqual({
      always_open: ALWAYS_OPEN_CRISIS_LINES,
      institution: [],
      institution_first: false,
    });
  });

  it('saves a resource with its hours and phone as written, listed first, and students see it beside 988, the Crisis Text Line and 911', async () => {
    const withText = {
      ...HARBOR,
      name: 'Night line',
      hours: 'always open',
      phone: '+1 617 555 0199',
      sms: '555-0100',
    };
    const saved = await put({ crisis_resources: [HARBOR, withText], crisis_resources_first: true });
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({ crisis_resources: [HARBOR, withText], crisis_resources_first: true });
    expect(await read()).toMatchObject({
      crisis_resources: [HARBOR, withText],
      crisis_resources_first: true,
    });
    expect(JSON.parse((await storedColumn()) ?? 'null')).toEqual({
      resources: [HARBOR, withText],
      first: true,
    });
    expect(await urgentHelp()).toEqual({
      always_open: ALWAYS_OPEN_CRISIS_LINES,
      institution: [HARBOR, withText],
      institution_first: true,
    });
    // Without the flag (an older client), they follow the always-open lines.
    await put({ crisis_resources: [HARBOR] });
    expect(await read()).toMatchObject({ crisis_resources: [HARBOR], crisis_resources_first: false });
    expect(await urgentHelp()).toMatchObject({ institution: [HARBOR], institution_first: false });
    // Removing them all leaves the always-open lines, as for an institution that never had any.
    await put({ crisis_resources: [] });
    expect(await storedColumn()).toBeNull();
  });

  it('records which crisis settings changed', async () => {
    await put({ crisis_resources: [HARBOR] });
    await put({ crisis_resources: [HARBOR], crisis_resources_first: true });
    const details = await ctx.db.kysely
      .selectFrom('audit_log')
      .select('detail')
      .where('action', '=', 'settings.update')
      .orderBy('id')
      .execute();
    expect(details.map((row) => JSON.parse(row.detail ?? '{}').changed)).toEqual([
      ['crisis_resources'],
      ['crisis_resources_first'],
    ]);
  });

  it.each([
    ['a resource without hours', { ...HARBOR, hours: undefined }, 'Hours are required'],
    ['blank hours', { ...HARBOR, hours: '   ' }, 'Hours are required'],
    ['a phone number with letters', { ...HARBOR, phone: '555-HELP' }, 'Phone must be 3 to 15 digits'],
    ['a text number of two digits', { ...HARBOR, sms: '1-2' }, 'Text number must be 3 to 15 digits'],
  ])('refuses %s with a 400 and changes nothing', async (_case, resource, message) => {
    await put({ crisis_resources: [HARBOR] });
    const before = await storedColumn();
    const response = await put({ crisis_resources: [resource] });
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ success: false, code: 'VALIDATION_FAILED' });
    expect((response.body as unknown as { message: string }).message).toContain(message);
    expect(await storedColumn()).toBe(before);
  });

  it('refuses two resources of the same name, and a flag that is not true or false', async () => {
    const twice = await put({ crisis_resources: [HARBOR, { ...HARBOR, phone: '555-0101' }] });
    expect(twice.status).toBe(400);
    expect((twice.body as unknown as { message: string }).message).toContain(
      'Each crisis resource name once',
    );
    const flag = await put({ crisis_resources: [HARBOR], crisis_resources_first: 'yes' });
    expect(flag.status).toBe(400);
    expect((flag.body as unknown as { message: string }).message).toContain(
      'crisis_resources_first must be true or false',
    );
    expect(await storedColumn()).toBeNull();
  });

  it('reads a list saved when resources replaced the national lines as the institution’s own, less its copies of them', async () => {
    const legacyOwn = { name: 'North Counselling', description: 'Call us.', phone: '5550100' };
    const legacyCopy = { name: '988 Lifeline', description: 'Call or text 988.', phone: '988', sms: '988' };
    await store(JSON.stringify([legacyCopy, legacyOwn]));
    expect(await read()).toMatchObject({ crisis_resources: [legacyOwn], crisis_resources_first: false });
    expect(await urgentHelp()).toEqual({
      always_open: ALWAYS_OPEN_CRISIS_LINES,
      institution: [legacyOwn],
      institution_first: false,
    });
    // Saved again, it needs its hours, and is then kept in the new form.
    expect((await put({ crisis_resources: [legacyOwn] })).status).toBe(400);
    await put({ crisis_resources: [{ ...legacyOwn, hours: 'weekdays 9am-5pm' }] });
    expect(JSON.parse((await storedColumn()) ?? 'null')).toEqual({
      resources: [{ ...legacyOwn, hours: 'weekdays 9am-5pm' }],
      first: false,
    });
  });

  it('shows students the always-open lines whatever a broken stored value holds', async () => {
    await store('{"resources": "nope"');
    expect(await read()).toMatchObject({ crisis_resources: [], crisis_resources_first: false });
    expect(await urgentHelp()).toMatchObject({ always_open: ALWAYS_OPEN_CRISIS_LINES, institution: [] });
  });

  it("keeps each institution's resources its own", async () => {
    await put({ crisis_resources: [HARBOR], crisis_resources_first: true });
    const south = new TestAgent(ctx.app);
    await south.signInDirectly(ctx.db, cast.adminB.email);
    expect((await south.get<InstitutionSettingsResponse>('/api/institution/settings/')).body).toMatchObject({
      crisis_resources: [],
      crisis_resources_first: false,
    });
  });

  it('shows a resource saved for one language only to students reading it, and the always-open lines in their language', async () => {
    const spanishLine = { ...HARBOR, name: 'Línea en español', language: 'es' };
    const saved = await put({ crisis_resources: [HARBOR, spanishLine], crisis_resources_first: true });
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({ crisis_resources: [HARBOR, spanishLine] });
    expect(await urgentHelp({ 'accept-language': 'es-MX,es;q=0.9' })).toEqual({
      always_open: alwaysOpenLinesFor('es'),
      institution: [HARBOR, spanishLine],
      institution_first: true,
    });
    expect(await urgentHelp({ 'accept-language': 'en-US' })).toEqual({
      always_open: ALWAYS_OPEN_CRISIS_LINES,
      institution: [HARBOR],
      institution_first: true,
    });
  });

  it('refuses a resource for a language the product does not have, and keeps what was saved', async () => {
    await put({ crisis_resources: [HARBOR] });
    const refused = await put({ crisis_resources: [{ ...HARBOR, language: 'fr' }] });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({
      code: 'BAD_REQUEST',
      message: CRISIS_LANGUAGE_UNKNOWN(HARBOR.name),
    });
    expect((await put({ crisis_resources: [{ ...HARBOR, language: 'Spanish' }] })).status).toBe(400);
    expect(await read()).toMatchObject({ crisis_resources: [HARBOR] });
  });
});
