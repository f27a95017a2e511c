import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, TestAgent, type TestContext } from '../../../../test/helpers/app';
import { TEST_DIALECTS } from '../../../../test/helpers/databases';
import { expectError } from '../../../../test/helpers/errors';
import { makeTwoInstitutions, TEST_PASSWORD } from '../../../../test/helpers/factories';
import { latestCodeFor } from '../../../../test/helpers/verify';
import { SIGN_IN_CHANGE_SUBJECT } from '../../../common/schemas/second-factor';
import type { SurveyQuestion } from '../../../common/schemas/surveys';
import { LANGUAGE_CHOSEN, LANGUAGE_UNKNOWN } from './service';

type Cast = Awaited<ReturnType<typeof makeTwoInstitutions>>;

describe.each(TEST_DIALECTS)('the language of mail, on %s', (dialect) => {
  let ctx: TestContext;
  let cast: Cast;

  beforeEach(async () => {
    ctx = await createTestApp(dialect, {}, { jobs: { poll: false } });
    cast = await makeTwoInstitutions(ctx.db.kysely);
  });
  afterEach(async () => {
    await ctx.close();
  });

  async function signedIn(email: string) {
    const agent = new TestAgent(ctx.app);
    await agent.login(email, TEST_PASSWORD);
    return agent;
  }

  const storedLanguage = async (userId: number) =>
    (
      await ctx.db.kysely
        .selectFrom('users')
        .select('language')
        .where('id', '=', userId)
        .executeTakeFirstOrThrow()
    ).language;

  const mailTo = (email: string) =>
    ctx.db.kysely
      .selectFrom('mail_outbox')
      .select(['subject', 'body'])
      .where('to_address', '=', email)
      .where('subject', '!=', SIGN_IN_CHANGE_SUBJECT)
      .orderBy('id')
      .execute();

  describe('POST /api/account/language/', () => {
    it("keeps a language the product has as the person's own, and the current user says it", async () => {
      const agent = await signedIn(cast.studentA.email);
      expect((await agent.get('/api/user/')).body).toMatchObject({ language: null });
      const chosen = await agent.post('/api/account/language/', { language: 'es' });
      expect(chosen.status).toBe(200);
      expect(chosen.body).toEqual({ success: true, message: LANGUAGE_CHOSEN, language: 'es' });
      expect(await storedLanguage(cast.studentA.id)).toBe('es');
      expect((await agent.get('/api/user/')).body).toMatchObject({ language: 'es' });
      // Only the caller's own account changes.
      expect(await storedLanguage(cast.studentB.id)).toBeNull();
    });

    it('refuses a language the product does not have, or none, and changes nothing', async () => {
      const agent = await signedIn(cast.studentA.email);
      await agent.post('/api/account/language/', { language: 'es' });
      expectError(
        await agent.post('/api/account/language/', { language: 'fr' }),
        400,
        'BAD_REQUEST',
        LANGUAGE_UNKNOWN,
      );
      expectError(
        await agent.post('/api/account/language/', { language: 'ES' }),
        400,
        'BAD_REQUEST',
        LANGUAGE_UNKNOWN,
      );
      expect((await agent.post('/api/account/language/', { language: '' })).status).toBe(400);
      expect((await agent.post('/api/account/language/', {})).status).toBe(400);
      expect(await storedLanguage(cast.studentA.id)).toBe('es');
    });

    it('is for signed-in people only', async () => {
      const response = await new TestAgent(ctx.app).post('/api/account/language/', { language: 'es' });
      expect(response.status).toBe(401);
    });
  });

  describe('mail to a student', () => {
    it('writes a password reset in the Spanish a student chose, and in English to one who chose none', async () => {
      await (await signedIn(cast.studentA.email)).post('/api/account/language/', { language: 'es' });
      const anyone = new TestAgent(ctx.app);
      expect((await anyone.post('/api/password-reset/', { email: cast.studentA.email })).status).toBe(200);
      expect((await anyone.post('/api/password-reset/', { email: cast.studentB.email })).status).toBe(200);

      const [spanish] = await mailTo(cast.studentA.email);
      expect(spanish?.subject).toBe('Elige una nueva contraseña de Wellspring Health');
      expect(spanish?.body).toContain(
        'Alguien pidió elegir una nueva contraseña para tu cuenta de Wellspring Health.',
      );
      expect(spanish?.body).toContain('/reset-password/');
      const [english] = await mailTo(cast.studentB.email);
      expect(english?.subject).toBe('Choose a new Wellspring Health password');
      expect(english?.body).toContain(
        'Someone asked to choose a new password for your Wellspring Health account.',
      );
    });

    it('tells a Spanish-speaking student of their password change in Spanish', async () => {
      const agent = await signedIn(cast.studentA.email);
      await agent.post('/api/account/language/', { language: 'es' });
      const changed = await agent.post('/api/account/password/', {
        current_password: TEST_PASSWORD,
        new_password: 'a-fresh-and-sturdy-passphrase',
        confirm_password: 'a-fresh-and-sturdy-passphrase',
      });
      expect(changed.status).toBe(200);
      const [mail] = await mailTo(cast.studentA.email);
      expect(mail?.subject).toBe('Se cambió tu contraseña de Wellspring Health');
      expect(mail?.body).toMatch(
        /^La contraseña de tu cuenta de Wellspring Health se cambió el .+ desde la dirección /,
      );
      expect(mail?.body).toContain('Si no fuiste tú, contacta de inmediato con tu institución.');
    });
  });

  describe('registration', () => {
    const registration = {
      institution_name: 'North University',
      name: 'Nora New',
      email: 'nora@north.edu',
      password: 'a-long-enough-passphrase',
      confirm_password: 'a-long-enough-passphrase',
    };

    it("mails the code in the browser's language and the account keeps it", async () => {
      const agent = new TestAgent(ctx.app);
      const started = await agent.request({
        method: 'POST',
        url: '/api/register/',
        payload: registration,
        headers: { 'accept-language': 'es-MX,es;q=0.9,en;q=0.5' },
      });
      expect(started.status).toBe(201);
      const [mail] = await mailTo('nora@north.edu');
      const code = await latestCodeFor(ctx.db.kysely, 'nora@north.edu');
      expect(mail?.subject).toBe(`Tu código de Wellspring Health: ${code}`);
      expect(mail?.body).toBe(
        [
          `Tu código de Wellspring Health es ${code}`,
          '',
          'Introdúcelo en la página que te lo pidió. Funciona una sola vez, durante 10 minutos.',
          'Si no pediste ningún código, puedes ignorar este correo.',
        ].join('\n'),
      );
      const proven = await agent.post('/api/verify/check/', { email: 'nora@north.edu', code });
      expect(proven.body).toMatchObject({ account_ready: true });
      await agent.login('nora@north.edu', registration.password);
      expect((await agent.get('/api/user/')).body).toMatchObject({ language: 'es' });
    });

    it('lets the chosen language (the lang cookie) win over what the browser asks for', async () => {
      const agent = new TestAgent(ctx.app);
      agent.jar.set('lang', 'es');
      await agent.request({
        method: 'POST',
        url: '/api/register/',
        payload: registration,
        headers: { 'accept-language': 'en-US,en' },
      });
      const [mail] = await mailTo('nora@north.edu');
      expect(mail?.subject).toMatch(/^Tu código de Wellspring Health: \d{6}$/);
    });

    it('keeps English wording for a browser that asks for English, or for a language the product lacks', async () => {
      const agent = new TestAgent(ctx.app);
      agent.jar.set('lang', 'xx');
      await agent.request({
        method: 'POST',
        url: '/api/register/',
        payload: registration,
        headers: { 'accept-language': 'fr-FR,fr' },
      });
      const code = await latestCodeFor(ctx.db.kysely, 'nora@north.edu');
      const [mail] = await mailTo('nora@north.edu');
      expect(mail?.subject).toBe(`Your Wellspring Health code: ${code}`);
      expect(mail?.body).toBe(
        [
          `Your Wellspring Health code is ${code}`,
          '',
          'Enter it on the page that asked for it. It works once, for 10 minutes.',
          'If you did not ask for a code, you can ignore this mail.',
        ].join('\n'),
      );
    });
  });

  describe('staff alerts', () => {
    it('alerts each staff member in their own language: Spanish to one who chose it, English to the rest', async () => {
      const db = ctx.db.kysely;
      // With no alert contacts set, the institution's admins are alerted; a second admin reads English.
      const second = await db
        .insertInto('users')
        .values({
          email: 'second@north.edu',
          name: 'Second Admin',
          role: 'institution_admin',
          institution_id: cast.a.id,
          password_hash: 'x',
          created_at: Date.now(),
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      expect(second.id).toBeGreaterThan(0);
      await db.updateTable('users').set({ language: 'es' }).where('id', '=', cast.adminA.id).execute();
      const { hash_link: hashLink } = await db
        .selectFrom('survey_templates')
        .select('hash_link')
        .where('institution_id', '=', cast.a.id)
        .executeTakeFirstOrThrow();
      const student = new TestAgent(ctx.app);
      const { questions } = (
        await student.get<{ questions: SurveyQuestion[] }>(`/api/get-user-survey-questions/${hashLink}/`)
      ).body;
      const answers = Object.fromEntries(
        questions.map((question) => [
          String(question.id),
          question.question_type === 'text'
            ? 'I want to kill myself'
            : question.category === 'safety'
              ? '1'
              : '2',
        ]),
      );
      const sent = await student.post(`/api/survey/link/${hashLink}/`, {
        student_name: 'Sam Student',
        school_email: 'sam@north.edu',
        answers,
      });
      expect(sent.status).toBeLessThan(300);

      const [spanish] = await mailTo(cast.adminA.email);
      expect(spanish?.subject).toBe('Wellspring: un estudiante necesita seguimiento ahora');
      expect(spanish?.body).toMatch(
        /^Una respuesta en tu institución necesita ahora la atención de un consejero\.\n\nInicia sesión y abre el caso \d+: \S+\/cases\/\d+\/\n\nConfirma el caso en cuanto alguien se haga cargo de él\.\nConfírmalo antes de: [a-zé]+ \d{1,2} [a-z]+ \d{4}, \d{2}:\d{2} \(UTC\)$/,
      );
      const [english] = await mailTo('second@north.edu');
      expect(english?.subject).toBe('Wellspring: a student needs follow-up now');
      expect(english?.body).toMatch(
        /^A check-in at your institution needs a counsellor's attention now\.\n\nSign in and open case \d+: \S+\/cases\/\d+\/\n\nPlease acknowledge the case once someone is on it\.\nAcknowledge by: /,
      );
    });
  });
});
