/**
 * The endpoint catalogue of the hardening suites: for every `/api/` route, a valid request as
 * a given actor would send it (aimed at institution A's or B's data), and the three tables the
 * route-table test holds against the app's registered routes:
 *   ACCESS_MATRIX  expected status per actor and target,
 *   CSRF_MATRIX    who the forged request would act for, for every unsafe route,
 *   FUZZ_TABLE     who sends the hostile input, for every route.
 * A route the app registers and a table lacks fails route-table.test.ts.
 */
import {
  ACTORS,
  type ActorName,
  type AnyActor,
  answersFor,
  FORM,
  type Req,
  type TableName,
  type Target,
  type World,
} from './harness';
import type { RouteKey } from './routes';

export interface BuildContext {
  world: World;
  actor: AnyActor;
  target: Target;
  /** Unique per request, for emails and submission ids that must not collide. */
  unique: string;
}

type Builder = (context: BuildContext) => Req;

const inst = ({ world, target }: BuildContext) => (target === 'B' ? world.B : world.A);

/** A valid request per route; the suites send it as is, or break it. */
export const REQUESTS: Record<RouteKey, Builder> = {
  'GET /api/csrf/': () => ({ method: 'GET', url: '/api/csrf/' }),
  'GET /api/user/': () => ({ method: 'GET', url: '/api/user/' }),
  'POST /api/login/': ({ world }) => ({
    method: 'POST',
    url: '/api/login/',
    body: { email: world.member.email, password: world.member.password },
  }),
  'POST /api/logout/': () => ({ method: 'POST', url: '/api/logout/' }),
  'POST /api/register/': (context) => {
    const password = 'a-long-enough-passphrase';
    return {
      method: 'POST',
      url: '/api/register/',
      body: {
        institution_name: inst(context).name,
        name: 'New Student',
        email: `new-${context.unique}@${inst(context).domain}`,
        password,
        confirm_password: password,
      },
    };
  },
  'GET /api/institutions/': () => ({ method: 'GET', url: '/api/institutions/' }),
  'POST /api/contact/': ({ unique }) => ({
    method: 'POST',
    url: '/api/contact/',
    contentType: FORM,
    raw: new URLSearchParams({
      institution: 'East Institute',
      name: 'Dana Dean',
      email: `dana-${unique}@east.edu`,
      students: '1200',
      message: 'We would like a quote.',
    }).toString(),
  }),
  'GET /api/contact/page.css': () => ({ method: 'GET', url: '/api/contact/page.css' }),
  'GET /api/health/live': () => ({ method: 'GET', url: '/api/health/live' }),
  'GET /api/health/ready': () => ({ method: 'GET', url: '/api/health/ready' }),
  'GET /api/docs': () => ({ method: 'GET', url: '/api/docs' }),
  'GET /api/docs/': () => ({ method: 'GET', url: '/api/docs/' }),
  'GET /api/docs/json': () => ({ method: 'GET', url: '/api/docs/json' }),
  'GET /api/docs/yaml': () => ({ method: 'GET', url: '/api/docs/yaml' }),
  'GET /api/docs/static/*': () => ({ method: 'GET', url: '/api/docs/static/swagger-ui.css' }),
  'GET /api/docs/static/index.html': () => ({ method: 'GET', url: '/api/docs/static/index.html' }),
  'GET /api/docs/static/swagger-initializer.js': () => ({
    method: 'GET',
    url: '/api/docs/static/swagger-initializer.js',
  }),
  'GET /api/dashboard/': () => ({ method: 'GET', url: '/api/dashboard/' }),
  'GET /api/dashboard/flagged/': () => ({ method: 'GET', url: '/api/dashboard/flagged/?offset=0&limit=10' }),
  'GET /api/dashboard/events/': () => ({ method: 'GET', url: '/api/dashboard/events/' }),
  'GET /api/dashboard/export.csv': () => ({ method: 'GET', url: '/api/dashboard/export.csv' }),
  'GET /api/survey-templates/': () => ({ method: 'GET', url: '/api/survey-templates/' }),
  'POST /api/survey-templates/': () => ({ method: 'POST', url: '/api/survey-templates/', body: {} }),
  'DELETE /api/survey-templates/': (context) => ({
    method: 'DELETE',
    url: '/api/survey-templates/',
    body: { template_id: inst(context).spareTemplateId },
  }),
  'POST /api/survey-templates/:id/use/': (context) => ({
    method: 'POST',
    url: `/api/survey-templates/${inst(context).spareTemplateId}/use/`,
  }),
  'GET /api/survey-templates/:id/questions/': (context) => ({
    method: 'GET',
    url: `/api/survey-templates/${inst(context).spareTemplateId}/questions/`,
  }),
  'POST /api/survey-templates/:id/questions/': (context) => ({
    method: 'POST',
    url: `/api/survey-templates/${inst(context).spareTemplateId}/questions/`,
    body: {
      question_text: 'How rested do you feel?',
      question_type: 'likert',
      question_category: 'sleep',
      order: 2,
      answer_choices: { '1': 'Fully rested' },
    },
  }),
  'DELETE /api/survey-templates/:id/questions/': (context) => {
    const { world, target } = context;
    // A+B: A's own template with B's question, as if A's admin tried to reach across.
    const question = target === 'A+B' ? world.B.spareQuestionId : inst(context).spareQuestionId;
    return {
      method: 'DELETE',
      url: `/api/survey-templates/${target === 'A+B' ? world.A.spareTemplateId : inst(context).spareTemplateId}/questions/`,
      body: { question_id: question },
    };
  },
  'POST /api/survey/': (context) => ({
    method: 'POST',
    url: '/api/survey/',
    body: {
      survey_template_id: inst(context).templateId,
      answers: answersFor(inst(context).questions),
      submission_id: `sub-${context.unique}`,
    },
  }),
  'POST /api/survey/link/:hashLink/': (context) => {
    const { world, actor, unique } = context;
    const visitor = world.actors[actor].userId === null;
    return {
      method: 'POST',
      url: `/api/survey/link/${inst(context).hashLink}/`,
      body: {
        ...(visitor
          ? { student_name: 'Link Visitor', school_email: `visitor-${unique}@${inst(context).domain}` }
          : {}),
        answers: answersFor(inst(context).questions),
        submission_id: `link-${unique}`,
      },
    };
  },
  'POST /api/verify/start/': (context) => ({
    method: 'POST',
    url: '/api/verify/start/',
    body: { email: `verify-${context.unique}@${inst(context).domain}`, hash_link: inst(context).hashLink },
  }),
  // Nobody can know a code no mail carried: the right answer for everyone is the same refusal.
  'POST /api/verify/check/': (context) => ({
    method: 'POST',
    url: '/api/verify/check/',
    body: { email: `verify-${context.unique}@${inst(context).domain}`, code: '000000' },
  }),
  'GET /api/get-user-survey-questions/': () => ({ method: 'GET', url: '/api/get-user-survey-questions/' }),
  'GET /api/get-user-survey-questions/:hashLink/': (context) => ({
    method: 'GET',
    url: `/api/get-user-survey-questions/${inst(context).hashLink}/`,
  }),
  'POST /api/autosave/': (context) => ({
    method: 'POST',
    url: '/api/autosave/',
    body: {
      template_id: inst(context).templateId,
      student_name: 'Draft Writer',
      school_email: 'draft@',
      answers: { [String(inst(context).questions[0]?.id)]: '3' },
    },
  }),
  'GET /api/autosave/load/:templateId': (context) => ({
    method: 'GET',
    url: `/api/autosave/load/${inst(context).templateId}`,
  }),
  'GET /api/autosave/load/:templateId/': (context) => ({
    method: 'GET',
    url: `/api/autosave/load/${inst(context).templateId}/`,
  }),
  'DELETE /api/autosave/clear/:templateId/': (context) => ({
    method: 'DELETE',
    url: `/api/autosave/clear/${inst(context).templateId}/`,
  }),
};

/** The valid request of a route, as the actor would send it at the target. */
export function buildRequest(route: RouteKey, context: BuildContext): Req {
  const builder = REQUESTS[route];
  if (!builder) throw new Error(`No request in the catalogue for ${route}`);
  return builder(context);
}

// ---------------------------------------------------------------------------------------------
// Access matrix.

export type Statuses = Record<ActorName, number>;

export interface AccessEntry {
  /** Expected status per actor, aiming at A's data (or at nothing in particular). */
  A: Statuses;
  /** Expected status per actor aiming at B's data, for routes that take ids or links. */
  B?: Statuses;
  extra?: { actor: ActorName; target: Target; status: number; why: string }[];
}

const everyone = (status: number): Statuses =>
  Object.fromEntries(ACTORS.map((actor) => [actor, status])) as Statuses;

/** Admin pages without ids: each admin sees their own institution. */
const admins = (ok: number): Statuses => ({
  anonymous: 401,
  studentA: 403,
  adminA: ok,
  adminB: ok,
  superuser: 403,
});

/** Admin routes with ids: only the owning institution's admin, others' ids are unknown (404). */
const ownerAdmin = (ok: number): Pick<AccessEntry, 'A' | 'B'> => ({
  A: { anonymous: 401, studentA: 403, adminA: ok, adminB: 404, superuser: 403 },
  B: { anonymous: 401, studentA: 403, adminA: 404, adminB: ok, superuser: 403 },
});

/**
 * Drafts: any logged-in user of the institution that owns the template; other ids are unknown.
 * A superuser belongs to no institution, so every template is unknown to them.
 */
const ownerDraft: Pick<AccessEntry, 'A' | 'B'> = {
  A: { anonymous: 401, studentA: 200, adminA: 200, adminB: 404, superuser: 404 },
  B: { anonymous: 401, studentA: 404, adminA: 404, adminB: 200, superuser: 404 },
};

export const ACCESS_MATRIX: Record<RouteKey, AccessEntry> = {
  'GET /api/csrf/': { A: everyone(200) },
  'GET /api/user/': { A: { ...everyone(200), anonymous: 401 } },
  'POST /api/login/': { A: everyone(200) },
  'POST /api/logout/': { A: everyone(200) },
  'POST /api/register/': { A: everyone(201), B: everyone(201) },
  'GET /api/institutions/': { A: everyone(200) },
  'POST /api/contact/': { A: everyone(200) },
  'GET /api/contact/page.css': { A: everyone(200) },
  // Probes for load balancers: they answer anyone, and say nothing but a state.
  'GET /api/health/live': { A: everyone(200) },
  'GET /api/health/ready': { A: everyone(200) },
  'GET /api/docs': { A: everyone(200) },
  'GET /api/docs/': { A: everyone(200) },
  'GET /api/docs/json': { A: everyone(200) },
  'GET /api/docs/yaml': { A: everyone(200) },
  'GET /api/docs/static/*': { A: everyone(200) },
  'GET /api/docs/static/index.html': { A: everyone(302) },
  'GET /api/docs/static/swagger-initializer.js': { A: everyone(200) },
  'GET /api/dashboard/': { A: admins(200) },
  'GET /api/dashboard/flagged/': { A: admins(200) },
  'GET /api/dashboard/events/': { A: admins(200) },
  'GET /api/dashboard/export.csv': { A: admins(200) },
  'GET /api/survey-templates/': { A: admins(200) },
  'POST /api/survey-templates/': { A: admins(201) },
  'DELETE /api/survey-templates/': ownerAdmin(200),
  'POST /api/survey-templates/:id/use/': ownerAdmin(200),
  'GET /api/survey-templates/:id/questions/': ownerAdmin(200),
  'POST /api/survey-templates/:id/questions/': ownerAdmin(201),
  'DELETE /api/survey-templates/:id/questions/': {
    ...ownerAdmin(200),
    extra: [
      { actor: 'adminA', target: 'A+B', status: 404, why: "A's own template with B's question" },
      { actor: 'adminB', target: 'A+B', status: 404, why: "A's template with B's own question" },
    ],
  },
  'POST /api/survey/': {
    A: { anonymous: 401, studentA: 200, adminA: 403, adminB: 403, superuser: 403 },
    B: { anonymous: 401, studentA: 404, adminA: 403, adminB: 403, superuser: 403 },
  },
  'POST /api/survey/link/:hashLink/': {
    A: { anonymous: 200, studentA: 200, adminA: 403, adminB: 403, superuser: 403 },
    B: { anonymous: 200, studentA: 403, adminA: 403, adminB: 403, superuser: 403 },
  },
  // Anyone may ask for a code for an address of the link's institution, and gets the same answer.
  'POST /api/verify/start/': { A: everyone(200), B: everyone(200) },
  'POST /api/verify/check/': { A: everyone(400), B: everyone(400) },
  'GET /api/get-user-survey-questions/': {
    A: { anonymous: 401, studentA: 200, adminA: 200, adminB: 200, superuser: 404 },
  },
  // The link is the capability: whoever holds it may read its questions (design section 5).
  'GET /api/get-user-survey-questions/:hashLink/': { A: everyone(200), B: everyone(200) },
  'POST /api/autosave/': ownerDraft,
  'GET /api/autosave/load/:templateId': ownerDraft,
  'GET /api/autosave/load/:templateId/': ownerDraft,
  'DELETE /api/autosave/clear/:templateId/': ownerDraft,
};

export interface Cell {
  actor: ActorName;
  target: Target;
  status: number;
  why?: string;
}

/** The cells of one route: five actors on A's data, five on B's where ids apply, and extras. */
export function cellsOf(entry: AccessEntry): Cell[] {
  const cells: Cell[] = ACTORS.map((actor) => ({ actor, target: 'A' as Target, status: entry.A[actor] }));
  if (entry.B) {
    const statuses = entry.B;
    cells.push(...ACTORS.map((actor) => ({ actor, target: 'B' as Target, status: statuses[actor] })));
  }
  cells.push(...(entry.extra ?? []));
  return cells;
}

// ---------------------------------------------------------------------------------------------
// CSRF matrix.

export interface CsrfEntry {
  /** The victim: whose cookies the forged request carries (the one it would act for). */
  actor: AnyActor;
  target: Target;
  /** Status of the same request with a valid token and no foreign Origin: the control. */
  control: number;
  /**
   * HTML form posts cannot send the header: exempt from the token by design, never from the
   * Origin check. The token columns then expect the control status.
   */
  tokenExempt?: string;
}

export const CSRF_MATRIX: Partial<Record<RouteKey, CsrfEntry>> = {
  'POST /api/login/': { actor: 'anonymous', target: 'A', control: 200 },
  'POST /api/logout/': { actor: 'studentA', target: 'A', control: 200 },
  'POST /api/register/': { actor: 'anonymous', target: 'A', control: 201 },
  'POST /api/contact/': {
    actor: 'anonymous',
    target: 'A',
    control: 200,
    tokenExempt: 'the landing page posts a plain HTML form, which cannot add the X-CSRFToken header',
  },
  'POST /api/survey-templates/': { actor: 'adminA', target: 'A', control: 201 },
  'DELETE /api/survey-templates/': { actor: 'adminA', target: 'A', control: 200 },
  'POST /api/survey-templates/:id/use/': { actor: 'adminA', target: 'A', control: 200 },
  'POST /api/survey-templates/:id/questions/': { actor: 'adminA', target: 'A', control: 201 },
  'DELETE /api/survey-templates/:id/questions/': { actor: 'adminA', target: 'A', control: 200 },
  'POST /api/survey/': { actor: 'studentA', target: 'A', control: 200 },
  'POST /api/survey/link/:hashLink/': { actor: 'studentA', target: 'A', control: 200 },
  'POST /api/verify/start/': { actor: 'anonymous', target: 'A', control: 200 },
  'POST /api/verify/check/': { actor: 'anonymous', target: 'A', control: 400 },
  'POST /api/autosave/': { actor: 'studentA', target: 'A', control: 200 },
  'DELETE /api/autosave/clear/:templateId/': { actor: 'studentA', target: 'A', control: 200 },
};

// ---------------------------------------------------------------------------------------------
// Bad input.

export interface FuzzEntry {
  /** Who sends the hostile input: someone allowed in, so that it reaches validation. */
  actor: AnyActor;
  target: Target;
  /**
   * Tables a refused request may legitimately change, left out of the "unchanged" comparison.
   */
  mayChange?: TableName[];
}

const as = (actor: AnyActor): FuzzEntry => ({ actor, target: 'A' });

export const FUZZ_TABLE: Record<RouteKey, FuzzEntry> = {
  'GET /api/csrf/': as('anonymous'),
  'GET /api/user/': as('studentA'),
  'POST /api/login/': as('anonymous'),
  'POST /api/logout/': as('studentA'),
  'POST /api/register/': as('anonymous'),
  'GET /api/institutions/': as('anonymous'),
  'POST /api/contact/': as('anonymous'),
  'GET /api/contact/page.css': as('anonymous'),
  'GET /api/health/live': as('anonymous'),
  'GET /api/health/ready': as('anonymous'),
  'GET /api/docs': as('anonymous'),
  'GET /api/docs/': as('anonymous'),
  'GET /api/docs/json': as('anonymous'),
  'GET /api/docs/yaml': as('anonymous'),
  'GET /api/docs/static/*': as('anonymous'),
  'GET /api/docs/static/index.html': as('anonymous'),
  'GET /api/docs/static/swagger-initializer.js': as('anonymous'),
  'GET /api/dashboard/': as('adminA'),
  'GET /api/dashboard/flagged/': as('adminA'),
  'GET /api/dashboard/events/': as('adminA'),
  'GET /api/dashboard/export.csv': as('adminA'),
  'GET /api/survey-templates/': as('adminA'),
  'POST /api/survey-templates/': as('adminA'),
  'DELETE /api/survey-templates/': as('adminA'),
  'POST /api/survey-templates/:id/use/': as('adminA'),
  'GET /api/survey-templates/:id/questions/': as('adminA'),
  'POST /api/survey-templates/:id/questions/': as('adminA'),
  'DELETE /api/survey-templates/:id/questions/': as('adminA'),
  'POST /api/survey/': as('studentA'),
  'POST /api/survey/link/:hashLink/': as('anonymous'),
  'POST /api/verify/start/': as('anonymous'),
  'POST /api/verify/check/': as('anonymous'),
  'GET /api/get-user-survey-questions/': as('studentA'),
  'GET /api/get-user-survey-questions/:hashLink/': as('anonymous'),
  'POST /api/autosave/': as('studentA'),
  'GET /api/autosave/load/:templateId': as('studentA'),
  'GET /api/autosave/load/:templateId/': as('studentA'),
  'DELETE /api/autosave/clear/:templateId/': as('studentA'),
};

/** Routes whose success is not a JSON body (pages, files, streams); their failures still are. */
export function answersWithJson(route: RouteKey): boolean {
  return !/^(GET \/api\/docs|GET \/api\/contact\/page\.css|POST \/api\/contact\/|GET \/api\/dashboard\/(events|export))/.test(
    route,
  );
}
