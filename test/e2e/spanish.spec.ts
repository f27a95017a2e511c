import { apiOf, createCounsellor } from './admin-support';
import {
  type Account,
  createInstitutionWithAdmin,
  DEMO_INSTITUTION,
  expect,
  expectNoA11yViolations,
  expectNoHorizontalOverflow,
  mailedCode,
  mailsTo,
  type Page,
  SCREEN_WIDTHS,
  saveScreenshot,
  signIn,
  TEST_PASSWORD,
  type TestInstitution,
  test,
  uniqueId,
} from './support';
import { answerEverything, readRows, safetyGroup } from './survey-helpers';

/**
 * A Spanish reader's journeys: a browser asking for Spanish (Accept-Language es) is answered in
 * Spanish from the first paint, registers and is mailed in Spanish, answers a survey whose
 * translated questions are shown in Spanish (the others as written), is shown the 988 Lifeline's
 * Spanish service in crisis, and staff who choose Spanish read the case in it. The texts are the
 * Spanish catalogues' (src/web/locales/es), so a catalogue left untranslated fails here.
 */

test.use({ locale: 'es-ES' });

const languageSelect = (page: Page, name: 'Idioma' | 'Language') =>
  page.getByRole('combobox', { name, exact: true });

/** A phone's width: the checks every Spanish screen gets there, then its screenshot to review. */
async function reviewOnPhone(page: Page, name: string): Promise<void> {
  await page.setViewportSize({ width: SCREEN_WIDTHS.mobile, height: 800 });
  await expectNoHorizontalOverflow(page);
  await expectNoA11yViolations(page, `${name} at ${SCREEN_WIDTHS.mobile}px`);
  await saveScreenshot(page, name);
}

test('the landing page is in Spanish on the first visit, and a switch to English holds across a reload', async ({
  page,
  context,
}) => {
  await page.goto('/');
  await expect(page.locator('html')).toHaveAttribute('lang', 'es');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(
    'Apoyo proactivo en salud mental para universidades',
  );
  await expect(languageSelect(page, 'Idioma')).toHaveValue('es');
  await expect(languageSelect(page, 'Idioma').locator('option:checked')).toHaveText('Español');
  await expectNoA11yViolations(page, 'landing in Spanish');
  await reviewOnPhone(page, 'es-landing');

  await languageSelect(page, 'Idioma').selectOption('en');
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(
    'Proactive Mental Health Support for Universities',
  );
  await expect(languageSelect(page, 'Language').locator('option:checked')).toHaveText('English');
  expect((await context.cookies()).find((cookie) => cookie.name === 'lang')?.value).toBe('en');

  // The browser still asks for Spanish; the choice made on the page wins, from the server's first paint.
  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(
    'Proactive Mental Health Support for Universities',
  );
  await expect(languageSelect(page, 'Language')).toHaveValue('en');
  await reviewOnPhone(page, 'es-landing-switched-to-english');
});

test('a student registers in Spanish and is mailed the code in Spanish', async ({ page }) => {
  const email = `alba-${uniqueId()}@${DEMO_INSTITUTION.domain}`;
  await page.setViewportSize({ width: SCREEN_WIDTHS.mobile, height: 800 });
  await page.goto('/register/');
  await expect(page.getByRole('heading', { level: 1, name: 'Registrarse' })).toBeVisible();
  const steps = page.getByRole('list', { name: 'Progreso del registro' }).getByRole('listitem');
  await expect(steps).toHaveText(['Institución', 'Cuenta']);
  await expect(page.getByRole('heading', { name: 'Paso 1 de 2: tu institución' })).toBeVisible();
  await expect(page.getByText('¿No ves tu institución? Contacta a ventas para agregarla.')).toBeVisible();
  await reviewOnPhone(page, 'es-register-step-1');

  await page.getByLabel('Institución').selectOption(DEMO_INSTITUTION.name);
  await page.getByLabel('Nombre completo').fill('Alba Quiroga Echeverría');
  await page.getByRole('button', { name: 'Siguiente' }).click();
  await expect(page.getByRole('heading', { name: 'Paso 2 de 2: tu cuenta' })).toBeVisible();
  await expect(steps.nth(1)).toHaveAttribute('aria-current', 'step');
  await page.getByLabel('Correo electrónico').fill(email);
  await page.getByLabel('Contraseña', { exact: true }).fill(TEST_PASSWORD);
  await page.getByLabel('Confirmar contraseña').fill(TEST_PASSWORD);
  await expect(page.getByRole('button', { name: 'Anterior' })).toBeVisible();
  await reviewOnPhone(page, 'es-register-step-2');

  await page.getByRole('button', { name: 'Enviar' }).click();
  await expect(page.getByRole('heading', { name: `Enviamos un código a ${email}` })).toBeVisible();
  await reviewOnPhone(page, 'es-register-code');

  const code = await mailedCode(email);
  const [mail] = mailsTo(email);
  expect(mail?.subject).toMatch(/^Tu código de .+ Health: \d{6}$/);
  expect(mail?.text).toContain(`Tu código de`);
  expect(mail?.text).toContain('Funciona una sola vez, durante 10 minutos.');
  expect(mail?.text).not.toMatch(/\byour\b|\bcode\b/i);

  await page.getByLabel('Código del correo').fill(code);
  await page.getByRole('button', { name: 'Confirmar' }).click();
  await expect(page.getByRole('dialog')).toContainText('tu cuenta está lista');
  // Then on to signing in, still in Spanish.
  await page.waitForURL(/\/login\/$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Iniciar sesión' })).toBeVisible();
  await reviewOnPhone(page, 'es-register-then-login');
  // The account keeps the language it registered in, so its later mail is Spanish too.
  expect(readRows('SELECT language FROM users WHERE email = ?', email)).toEqual([{ language: 'es' }]);
});

/** A custom question of the test's own, and its Spanish wording, saved by the admin through the API. */
const CONNECTED = {
  en: 'How connected do you feel to the people in your classes?',
  es: '¿Qué tan conectado o conectada te sientes con las personas de tus clases?',
};
const SAFETY_EN = 'In the past two weeks, how often have you had thoughts of harming yourself?';
const WELLBEING_EN = 'Overall, how would you rate your wellbeing over the past two weeks?';
const OWN_WORDS = 'Últimamente me siento muy sola y ya no sé con quién hablar de esto.';
const PANEL_ES = 'No tienes que enfrentar esto en soledad';

test.describe('a shared-link survey answered in Spanish, and its case', () => {
  // The second test reads the case the first one's answer opened.
  test.describe.configure({ mode: 'serial' });
  let institution: TestInstitution;
  let studentEmail: string;

  test('translated questions are asked in Spanish, the rest as written; crisis help is in Spanish; each answer keeps its language', async ({
    page,
  }) => {
    institution = await createInstitutionWithAdmin();
    await signIn(page, institution.admin);
    const admin = apiOf(page);
    const [template] = (await admin.templates()).filter((candidate) => candidate.used);
    if (!template) throw new Error('The institution has an active template');
    const { question } = await admin.send<{ question: { id: number } }>(
      'post',
      `/api/survey-templates/${template.id}/questions/`,
      { question_text: CONNECTED.en, question_type: 'likert', question_category: 'support', order: 4 },
    );
    const csrf = (await page.context().cookies()).find((cookie) => cookie.name === 'csrftoken')?.value ?? '';
    const translated = await page
      .context()
      .request.put(`/api/survey-templates/${template.id}/questions/${question.id}/translations/es/`, {
        headers: { 'X-CSRFToken': csrf },
        data: { question_text: CONNECTED.es },
      });
    expect(translated.status(), await translated.text()).toBe(200);
    const safety = (await admin.questions(template.id)).find((entry) => entry.question_text === SAFETY_EN);
    if (!safety) throw new Error('The default template asks the safety question');

    // The student: no account, a browser asking for Spanish, on a phone.
    await page.context().clearCookies();
    await page.setViewportSize({ width: SCREEN_WIDTHS.mobile, height: 800 });
    await page.goto(`/survey/link/${template.hash_link}/`);
    await expect(page.locator('html')).toHaveAttribute('lang', 'es');
    await expect(page.getByRole('group', { name: CONNECTED.es })).toBeVisible();
    await expect(page.getByRole('group', { name: CONNECTED.en })).toHaveCount(0);
    // Untranslated questions are shown as the institution wrote them, choices included.
    await expect(page.getByRole('group', { name: WELLBEING_EN })).toBeVisible();
    await expect(safetyGroup(page).getByRole('radio', { name: 'Sometimes' })).toBeVisible();
    await page.getByLabel('Nombre completo').fill('Alba Quiroga');
    studentEmail = `alba-${uniqueId()}@${institution.domain}`;
    await page.getByLabel('Correo electrónico escolar').fill(studentEmail);
    await answerEverything(page);
    await safetyGroup(page).getByRole('radio', { name: 'Sometimes' }).check();
    await page.getByPlaceholder('Escribe tu respuesta aquí...').fill(OWN_WORDS);
    await reviewOnPhone(page, 'es-survey-link-answered');

    await page.getByRole('button', { name: 'Enviar encuesta' }).click();
    const panel = page.getByRole('region', { name: PANEL_ES });
    await expect(panel).toBeVisible();
    await expect(panel.getByRole('region', { name: 'A cualquier hora, de día o de noche' })).toBeVisible();
    await expect(
      panel.getByRole('heading', { name: '988 Suicide & Crisis Lifeline (en español)' }),
    ).toBeVisible();
    await expect(panel).toContainText('Llama al 988 y marca 2');
    await expect(panel).toContainText('Si estás en peligro inmediato, llama al 911.');
    await expect(panel).not.toContainText('Call or text 988');
    await expect(panel.getByRole('link', { name: 'Llamar al 988' })).toHaveAttribute('href', 'tel:988');
    await expect(page.getByRole('heading', { name: `Enviamos un código a ${studentEmail}` })).toBeVisible();
    await reviewOnPhone(page, 'es-survey-link-crisis');

    // Each answer keeps the language its question was shown in.
    const stored = readRows(
      `SELECT answers.question_id, answers.language FROM answers
       JOIN submissions ON submissions.id = answers.submission_id
       WHERE submissions.school_email = ?`,
      studentEmail,
    );
    const languageOf = (questionId: number) => stored.find((row) => row.question_id === questionId)?.language;
    expect(languageOf(question.id)).toBe('es');
    expect(languageOf(safety.id)).toBe('en');
    expect(stored.filter((row) => row.language === 'es')).toHaveLength(1);
  });

  test("a counsellor who chooses Spanish reads the case in Spanish, with the student's own words as written", async ({
    browser,
  }) => {
    const counsellor: Account = await createCounsellor(institution);
    const [opened] = readRows(
      `SELECT cases.id FROM cases
       JOIN submissions ON submissions.respondent_id = cases.respondent_id
       WHERE submissions.school_email = ?`,
      studentEmail,
    );
    const caseId = String(opened?.id);
    expect(opened?.id).toBeDefined();

    // A device whose browser asks for English: the counsellor chooses Spanish in the header.
    const englishDevice = await browser.newContext({ locale: 'en-US' });
    const desk = await englishDevice.newPage();
    await signIn(desk, counsellor);
    await desk.goto(`/cases/${caseId}/`);
    await expect(
      desk.getByRole('heading', { level: 1, name: new RegExp(`^Case ${caseId}: `) }),
    ).toBeVisible();
    const saved = desk.waitForResponse(
      (response) =>
        response.request().method() === 'POST' && response.url().endsWith('/api/account/language/'),
    );
    await languageSelect(desk, 'Language').selectOption('es');
    expect((await saved).ok()).toBe(true);
    await expect(
      desk.getByRole('heading', { level: 1, name: new RegExp(`^Caso ${caseId}: `) }),
    ).toBeVisible();
    expect(readRows('SELECT language FROM users WHERE email = ?', counsellor.email)).toEqual([
      { language: 'es' },
    ]);
    await englishDevice.close();

    // Another device, also asking for English: the account's choice follows the counsellor.
    const otherDevice = await browser.newContext({ locale: 'en-US' });
    const page = await otherDevice.newPage();
    await signIn(page, counsellor);
    await page.goto(`/cases/${caseId}/`);
    await expect(
      page.getByRole('heading', { level: 1, name: new RegExp(`^Caso ${caseId}: `) }),
    ).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('lang', 'es');
    await expect(
      page.getByText('Nombre indicado por un remitente que no ha confirmado la dirección: Alba Quiroga'),
    ).toBeVisible();
    await expect(page.getByRole('navigation', { name: 'Principal' })).toBeVisible();
    for (const heading of [
      'Detalles',
      'Chequeos de bienestar de este caso',
      'Historial del caso',
      'Trabajar en este caso',
      'Correos sobre este caso',
    ]) {
      await expect(page.getByRole('heading', { level: 2, name: heading })).toBeVisible();
    }
    await expect(page.getByRole('link', { name: 'Todos los casos', exact: true })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Historial del estudiante' })).toBeVisible();
    await expect(page.getByText('Confirmar recepción antes de', { exact: true })).toBeVisible();
    await expect(page.getByLabel('Asignar a')).toBeVisible();
    await expect(page.getByLabel('Nota', { exact: true })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Agregar nota' })).toBeVisible();
    // The student's own words, as they wrote them, and the questions as they were asked.
    await expect(page.getByText(OWN_WORDS)).toBeVisible();
    await expect(page.getByText(CONNECTED.en).or(page.getByText(CONNECTED.es)).first()).toBeVisible();
    await expectNoA11yViolations(page, 'case in Spanish');
    await reviewOnPhone(page, 'es-case');
    await otherDevice.close();
  });
});
