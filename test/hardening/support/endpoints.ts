/**
 * The endpoint catalogue of the hardening suites: for every `/api/` route, a valid request as
 * a given actor would send it (aimed at institution A's or B's data), and the three tables the
 * route-table test holds against the app's registered routes:
 *   ACCESS_MATRIX  expected status per actor and target,
 *   CSRF_MATRIX    who the forged request would act for, for every unsafe route,
 *   FUZZ_TABLE     who sends the hostile input, for every route.
 * A route the app registers and a table lacks fails route-table.test.ts.
 */

import { TEST_PASSWORD } from '../../helpers/factories';
import {
  ACTORS,
  type ActorName,
  type AnyActor,
  answersFor,
  CSV,
  FORM,
  nextContactToken,
  nextInvitationToken,
  nextInviteToken,
  nextLegalHoldId,
  nextRecordsRequestId,
  nextResetToken,
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
  // Every actor's own password (all share the test password): a real change, new every time.
  'POST /api/account/password/': ({ unique }) => {
    const next = `a sturdy new passphrase ${unique}`;
    return {
      method: 'POST',
      url: '/api/account/password/',
      body: { current_password: TEST_PASSWORD, new_password: next, confirm_password: next },
    };
  },
  'GET /api/account/sessions/': () => ({ method: 'GET', url: '/api/account/sessions/' }),
  'POST /api/account/sessions/sign-out-others/': () => ({
    method: 'POST',
    url: '/api/account/sessions/sign-out-others/',
  }),
  'POST /api/account/language/': () => ({
    method: 'POST',
    url: '/api/account/language/',
    body: { language: 'es' },
  }),
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
  'GET /api/dashboard/instruments/': () => ({ method: 'GET', url: '/api/dashboard/instruments/' }),
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
  'POST /api/survey-templates/:id/instruments/': (context) => ({
    method: 'POST',
    url: `/api/survey-templates/${inst(context).spareTemplateId}/instruments/`,
    body: { instrument_id: 'phq9', order: 3 },
  }),
  'PATCH /api/survey-templates/:id/questions/:questionId/': (context) => {
    const { world, target } = context;
    const question = target === 'A+B' ? world.B.spareQuestionId : inst(context).spareQuestionId;
    const template = target === 'A+B' ? world.A.spareTemplateId : inst(context).spareTemplateId;
    return {
      method: 'PATCH',
      url: `/api/survey-templates/${template}/questions/${question}/`,
      body: { order: 7 },
    };
  },
  'PUT /api/survey-templates/:id/questions/:questionId/translations/:language/': (context) => {
    const { world, target } = context;
    // A+B: A's own template with B's question, as if A's admin tried to reach across.
    const question = target === 'A+B' ? world.B.spareQuestionId : inst(context).spareQuestionId;
    const template = target === 'A+B' ? world.A.spareTemplateId : inst(context).spareTemplateId;
    return {
      method: 'PUT',
      url: `/api/survey-templates/${template}/questions/${question}/translations/es/`,
      body: { question_text: '¿Cómo te sientes?', answer_choices: null },
    };
  },
  'DELETE /api/survey-templates/:id/questions/:questionId/translations/:language/': (context) => {
    const { world, target } = context;
    const question = target === 'A+B' ? world.B.spareQuestionId : inst(context).spareQuestionId;
    const template = target === 'A+B' ? world.A.spareTemplateId : inst(context).spareTemplateId;
    return {
      method: 'DELETE',
      url: `/api/survey-templates/${template}/questions/${question}/translations/es/`,
    };
  },
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
  // Whoever asks gets the same answer; the mail goes to the address's owner.
  'POST /api/password-reset/': (context) => ({
    method: 'POST',
    url: '/api/password-reset/',
    body: { email: inst(context).forgetfulEmail },
  }),
  // The mailed link is the capability: whoever holds it chooses the password, once.
  'POST /api/password-reset/:token/': (context) => ({
    method: 'POST',
    url: `/api/password-reset/${nextResetToken(inst(context))}/`,
    body: { password: 'amber-kettle-voyage-93', confirm_password: 'amber-kettle-voyage-93' },
  }),
  // The same answer whatever the address and password; a code goes out only for a waiting registration's.
  'POST /api/register/resend-code/': (context) => ({
    method: 'POST',
    url: '/api/register/resend-code/',
    body: { email: `waiting-${context.unique}@${inst(context).domain}`, password: 'amber-kettle-voyage-93' },
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
  'GET /api/staff/': () => ({ method: 'GET', url: '/api/staff/' }),
  'POST /api/staff/': (context) => ({
    method: 'POST',
    url: '/api/staff/',
    body: {
      email: `staff-${context.unique}@${inst(context).domain}`,
      name: 'New Colleague',
      role: 'counsellor',
    },
  }),
  'PUT /api/staff/:id/': (context) => ({
    method: 'PUT',
    url: `/api/staff/${inst(context).spareMemberId}/`,
    body: { role: 'counsellor' },
  }),
  'DELETE /api/staff/:id/': (context) => ({
    method: 'DELETE',
    url: `/api/staff/${inst(context).spareMemberId}/`,
  }),
  'POST /api/staff/invitations/:id/resend/': (context) => ({
    method: 'POST',
    url: `/api/staff/invitations/${inst(context).spareInvitationId}/resend/`,
  }),
  'DELETE /api/staff/invitations/:id/': (context) => ({
    method: 'DELETE',
    url: `/api/staff/invitations/${inst(context).spareInvitationId}/`,
  }),
  // The link is the capability: whoever holds it sees whom it is for, and may accept it once.
  'GET /api/staff/invite/:token/': (context) => ({
    method: 'GET',
    url: `/api/staff/invite/${inst(context).lookupInvitationToken}/`,
  }),
  'POST /api/staff/invite/:token/': (context) => ({
    method: 'POST',
    url: `/api/staff/invite/${nextInvitationToken(inst(context))}/`,
    body: { password: 'quiet-lantern-orchard-47', confirm_password: 'quiet-lantern-orchard-47' },
  }),
  'GET /api/audit/': () => ({ method: 'GET', url: '/api/audit/?page=1&page_size=20&action=template' }),
  'GET /api/audit/export.csv': () => ({ method: 'GET', url: '/api/audit/export.csv?action=template' }),
  'GET /api/institution/settings/': () => ({ method: 'GET', url: '/api/institution/settings/' }),
  'PUT /api/institution/settings/': (context) => ({
    method: 'PUT',
    url: '/api/institution/settings/',
    body: {
      alert_emails: [`alerts@${inst(context).domain}`],
      escalation_emails: [],
      urgent_ack_minutes: 45,
      elevated_ack_hours: 24,
      time_zone: 'Europe/London',
      crisis_resources: [
        {
          name: 'Campus Counselling',
          description: 'Same-day appointments.',
          hours: 'weekdays 8am-6pm',
          phone: '(617) 555-0100',
        },
      ],
      crisis_resources_first: true,
    },
  }),
  'GET /api/institution/sso/': () => ({ method: 'GET', url: '/api/institution/sso/' }),
  // Each admin sets up their own institution, with its own domain (no one may claim another's).
  'PUT /api/institution/sso/': ({ world, actor }) => ({
    method: 'PUT',
    url: '/api/institution/sso/',
    body: {
      issuer: 'https://login.example.edu',
      client_id: 'wellspring',
      domains: [(world.actors[actor].institution === 'B' ? world.B : world.A).domain],
      student_password_sign_in: false,
    },
  }),
  'DELETE /api/institution/sso/': () => ({ method: 'DELETE', url: '/api/institution/sso/' }),
  // A loopback provider, which the server refuses to call outside development: answered at once.
  'POST /api/institution/sso/test/': () => ({
    method: 'POST',
    url: '/api/institution/sso/test/',
    body: { issuer: 'https://127.0.0.1/', client_id: 'wellspring' },
  }),
  'GET /api/institution/retention/': () => ({ method: 'GET', url: '/api/institution/retention/' }),
  'PUT /api/institution/retention/': () => ({
    method: 'PUT',
    url: '/api/institution/retention/',
    body: { answers_months: 24, closed_cases_months: 24, audit_log_months: 84 },
  }),
  'GET /api/legal-holds/': () => ({ method: 'GET', url: '/api/legal-holds/' }),
  // A new student each time: a student has one hold at most.
  'POST /api/legal-holds/': (context) => ({
    method: 'POST',
    url: '/api/legal-holds/',
    body: { email: `hold-${context.unique}@${inst(context).domain}`, reason: 'Records request' },
  }),
  'POST /api/legal-holds/:id/lift/': (context) => ({
    method: 'POST',
    url: `/api/legal-holds/${nextLegalHoldId(inst(context))}/lift/`,
    body: { reason: 'Matter closed' },
  }),
  // A new address each time: erasing someone nothing is held about is recorded and changes nothing else.
  'POST /api/erasures/preview/': (context) => ({
    method: 'POST',
    url: '/api/erasures/preview/',
    body: { email: `erase-${context.unique}@${inst(context).domain}` },
  }),
  'POST /api/erasures/': (context) => ({
    method: 'POST',
    url: '/api/erasures/',
    body: { email: `erase-${context.unique}@${inst(context).domain}` },
  }),
  'GET /api/records-requests/': () => ({ method: 'GET', url: '/api/records-requests/' }),
  // A new student each time: a student has one open request at most.
  'POST /api/records-requests/': (context) => ({
    method: 'POST',
    url: '/api/records-requests/',
    body: { email: `request-${context.unique}@${inst(context).domain}`, note: 'By letter' },
  }),
  'POST /api/records-requests/:id/fulfil/': (context) => ({
    method: 'POST',
    url: `/api/records-requests/${nextRecordsRequestId(inst(context))}/fulfil/`,
  }),
  'GET /api/account/records/': () => ({ method: 'GET', url: '/api/account/records/' }),
  'POST /api/sso/discover/': (context) => ({
    method: 'POST',
    url: '/api/sso/discover/',
    body: { email: `someone-${context.unique}@${inst(context).domain}` },
  }),
  // The world's provider is down: the sign-in starts and is sent back to the login page at once.
  'GET /api/sso/start/': (context) => ({
    method: 'GET',
    url: `/api/sso/start/?institution=${inst(context).id}&next=%2Fsurvey%2F`,
  }),
  // The world's provider is down: linking cannot start, and says so.
  'POST /api/sso/link/': () => ({ method: 'POST', url: '/api/sso/link/' }),
  // A state no sign-in was started with: back to the login page for everyone.
  'GET /api/sso/callback/': (context) => ({
    method: 'GET',
    url: `/api/sso/callback/?state=forged-${context.unique}&code=forged`,
  }),
  'GET /api/cases/': () => ({ method: 'GET', url: '/api/cases/?status=all' }),
  'GET /api/cases/export.csv': () => ({
    method: 'GET',
    url: '/api/cases/export.csv?status=all&sort=student',
  }),
  'GET /api/cases/:id/': (context) => ({ method: 'GET', url: `/api/cases/${inst(context).caseId}/` }),
  'POST /api/cases/:id/acknowledge/': (context) => ({
    method: 'POST',
    url: `/api/cases/${inst(context).caseId}/acknowledge/`,
  }),
  'POST /api/cases/:id/assign/': (context) => ({
    method: 'POST',
    url: `/api/cases/${inst(context).caseId}/assign/`,
    body: {
      user_id: context.world.actors[context.target === 'B' ? 'adminB' : 'adminA'].userId,
    },
  }),
  'POST /api/cases/:id/notes/': (context) => ({
    method: 'POST',
    url: `/api/cases/${inst(context).caseId}/notes/`,
    body: { text: 'Called the student; will meet tomorrow.' },
  }),
  'POST /api/cases/:id/resolve/': (context) => ({
    method: 'POST',
    url: `/api/cases/${inst(context).spareCaseIds[context.actor === 'counsellorA' ? 1 : 0]}/resolve/`,
    body: { outcome: 'connected_to_counselling' },
  }),
  'POST /api/cases/:id/reopen/': (context) => ({
    method: 'POST',
    url: `/api/cases/${inst(context).spareCaseIds[context.actor === 'counsellorA' ? 3 : 2]}/reopen/`,
    body: { note: 'The student wrote again.' },
  }),
  'GET /api/students/:id/history/': (context) => ({
    method: 'GET',
    url: `/api/students/${inst(context).studentId}/history/`,
  }),
  'GET /api/roster/': () => ({ method: 'GET', url: '/api/roster/?offset=0&limit=20&q=a' }),
  'GET /api/campaigns/': () => ({ method: 'GET', url: '/api/campaigns/' }),
  'POST /api/campaigns/': (context) => ({
    method: 'POST',
    url: '/api/campaigns/',
    body: {
      template_id: inst(context).templateId,
      groups: ['Hardening'],
      day: 'Wednesday',
      hour: 10,
      minute: 30,
      ampm: 'AM',
      recurring: true,
      send_now: false,
      reminder_after_days: 2,
    },
  }),
  'POST /api/campaigns/:id/pause/': (context) => ({
    method: 'POST',
    url: `/api/campaigns/${inst(context).campaignId}/pause/`,
  }),
  'POST /api/campaigns/:id/resume/': (context) => ({
    method: 'POST',
    url: `/api/campaigns/${inst(context).pausedCampaignId}/resume/`,
  }),
  'POST /api/campaigns/:id/cancel/': (context) => ({
    method: 'POST',
    url: `/api/campaigns/${inst(context).campaignId}/cancel/`,
  }),
  'GET /api/survey/invite/:token/': (context) => ({
    method: 'GET',
    url: `/api/survey/invite/${inst(context).inviteTokens[0]}/`,
  }),
  'POST /api/survey/invite/:token/': (context) => ({
    method: 'POST',
    url: `/api/survey/invite/${nextInviteToken(inst(context))}/`,
    body: { answers: answersFor(inst(context).questions), submission_id: `invite-${context.unique}` },
  }),
  'GET /api/campaigns/:id/not-answered/': (context) => ({
    method: 'GET',
    url: `/api/campaigns/${inst(context).campaignId}/not-answered/`,
  }),
  'GET /api/campaigns/:id/results/': (context) => ({
    method: 'GET',
    url: `/api/campaigns/${inst(context).anonymousCampaignId}/results/`,
  }),
  'POST /api/survey/contact/': (context) => ({
    method: 'POST',
    url: '/api/survey/contact/',
    body: { contact_token: nextContactToken(inst(context)), name: 'A student', phone: '+1 555 0100' },
  }),
  'POST /api/roster/students/:id/left/': (context) => ({
    method: 'POST',
    url: `/api/roster/students/${inst(context).rosterStudentId}/left/`,
    body: { left: true },
  }),
  'POST /api/roster/': (context) => ({
    method: 'POST',
    url: '/api/roster/',
    contentType: CSV,
    raw: `name,email,group\r\n"Roster, Student",roster-${context.unique}@${inst(context).domain},Year 1\r\n`,
  }),
  'GET /api/second-factor/': () => ({ method: 'GET', url: '/api/second-factor/' }),
  'POST /api/passkeys/registration/options/': () => ({
    method: 'POST',
    url: '/api/passkeys/registration/options/',
  }),
  // An answer no authenticator made: refused for everyone allowed to send it.
  'POST /api/passkeys/registration/': () => ({
    method: 'POST',
    url: '/api/passkeys/registration/',
    body: { credential: forgedCredential({ attestationObject: 'o2NmbXRkbm9uZQ' }) },
  }),
  'POST /api/passkeys/authentication/options/': () => ({
    method: 'POST',
    url: '/api/passkeys/authentication/options/',
  }),
  'POST /api/passkeys/authentication/': () => ({
    method: 'POST',
    url: '/api/passkeys/authentication/',
    body: { credential: forgedCredential({ authenticatorData: 'AAAA', signature: 'AAAA' }) },
  }),
  'POST /api/second-factor/totp/setup/': () => ({ method: 'POST', url: '/api/second-factor/totp/setup/' }),
  // Nobody holds the app of a secret no one was shown: the same refusal for everyone allowed in.
  'POST /api/second-factor/totp/confirm/': () => ({
    method: 'POST',
    url: '/api/second-factor/totp/confirm/',
    body: { code: '000000' },
  }),
  'POST /api/second-factor/totp/replacement/': () => ({
    method: 'POST',
    url: '/api/second-factor/totp/replacement/',
  }),
  // No replacement was started in this world: the same refusal for everyone allowed to send it.
  'POST /api/second-factor/totp/replacement/confirm/': () => ({
    method: 'POST',
    url: '/api/second-factor/totp/replacement/confirm/',
    body: { code: '000000' },
  }),
  'POST /api/second-factor/verify/': () => ({
    method: 'POST',
    url: '/api/second-factor/verify/',
    body: { code: '000000' },
  }),
  'POST /api/second-factor/recovery-codes/': () => ({
    method: 'POST',
    url: '/api/second-factor/recovery-codes/',
  }),
  'POST /api/staff/:id/second-factor/reset/': (context) => ({
    method: 'POST',
    url: `/api/staff/${inst(context).colleagueId}/second-factor/reset/`,
  }),
  'POST /api/staff/:id/sso-link/': (context) => ({
    method: 'POST',
    url: `/api/staff/${inst(context).colleagueId}/sso-link/`,
  }),
  // A code nobody's app shows: a step-up refused for everyone allowed to ask for one.
  'POST /api/second-factor/step-up/': () => ({
    method: 'POST',
    url: '/api/second-factor/step-up/',
    body: { code: '000000' },
  }),
  'GET /api/passkeys/': () => ({ method: 'GET', url: '/api/passkeys/' }),
  // The world's staff have no passkey: removing one is unknown (404) for everyone allowed to try.
  'DELETE /api/passkeys/:id/': () => ({ method: 'DELETE', url: '/api/passkeys/999999/' }),
  'POST /api/passkeys/step-up/options/': () => ({ method: 'POST', url: '/api/passkeys/step-up/options/' }),
  'POST /api/passkeys/step-up/': () => ({
    method: 'POST',
    url: '/api/passkeys/step-up/',
    body: { credential: forgedCredential({ authenticatorData: 'AAAA', signature: 'AAAA' }) },
  }),
};

/** A WebAuthn answer in the right outline that no authenticator made, for a passkey no one has. */
function forgedCredential(response: Record<string, string>) {
  return {
    id: 'bm8tc3VjaC1wYXNza2V5',
    rawId: 'bm8tc3VjaC1wYXNza2V5',
    type: 'public-key',
    clientExtensionResults: {},
    response: { clientDataJSON: 'e30', ...response },
  };
}

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

/**
 * Staff who signed in with a password alone and have no second factor yet: refused (403,
 * SECOND_FACTOR_REQUIRED) wherever a sign-in is needed, until they set one up.
 */
const NO_SECOND_FACTOR = 403;

/** Admin pages without ids: each admin sees their own institution; other staff are refused. */
const admins = (ok: number): Statuses => ({
  anonymous: 401,
  studentA: 403,
  studentSso: 403,
  adminA: ok,
  counsellorA: 403,
  viewerA: 403,
  adminB: ok,
  superuser: 403,
  pendingAdminA: NO_SECOND_FACTOR,
});

/** Staff pages whose rows name students: admins and counsellors; viewers see numbers only. */
const namesReaders = (ok: number): Statuses => ({ ...admins(ok), counsellorA: ok });

/** Staff pages of numbers: every staff role. */
const staff = (ok: number): Statuses => ({ ...admins(ok), counsellorA: ok, viewerA: ok });

/** Admin routes with ids: only the owning institution's admin, others' ids are unknown (404). */
const ownerAdmin = (ok: number): Pick<AccessEntry, 'A' | 'B'> => ({
  A: {
    anonymous: 401,
    studentA: 403,
    studentSso: 403,
    adminA: ok,
    counsellorA: 403,
    viewerA: 403,
    adminB: 404,
    superuser: 403,
    pendingAdminA: NO_SECOND_FACTOR,
  },
  B: {
    anonymous: 401,
    studentA: 403,
    studentSso: 403,
    adminA: 404,
    counsellorA: 403,
    viewerA: 403,
    adminB: ok,
    superuser: 403,
    pendingAdminA: NO_SECOND_FACTOR,
  },
});

/** Case work and student history: the owning institution's admins and counsellors. */
const ownerCaseWorker = (ok: number): Pick<AccessEntry, 'A' | 'B'> => {
  const { A, B } = ownerAdmin(ok);
  return { A: { ...A, counsellorA: ok }, B: { ...(B as Statuses), counsellorA: 404 } };
};

/**
 * Drafts: any logged-in user of the institution that owns the template; other ids are unknown.
 * A superuser belongs to no institution, so every template is unknown to them.
 */
const ownerDraft: Pick<AccessEntry, 'A' | 'B'> = {
  A: {
    anonymous: 401,
    studentA: 200,
    studentSso: 200,
    adminA: 200,
    counsellorA: 200,
    viewerA: 200,
    adminB: 404,
    superuser: 404,
    pendingAdminA: NO_SECOND_FACTOR,
  },
  B: {
    anonymous: 401,
    studentA: 404,
    studentSso: 404,
    adminA: 404,
    counsellorA: 404,
    viewerA: 404,
    adminB: 200,
    superuser: 404,
    pendingAdminA: NO_SECOND_FACTOR,
  },
};

/** The second factor's own calls: staff only, and those a password alone may make (to set one up). */
const secondFactor = (admin: number, pending: number): Statuses => ({
  anonymous: 401,
  studentA: 403,
  studentSso: 403,
  adminA: admin,
  counsellorA: admin,
  viewerA: admin,
  adminB: admin,
  superuser: 403,
  pendingAdminA: pending,
});

export const ACCESS_MATRIX: Record<RouteKey, AccessEntry> = {
  'GET /api/csrf/': { A: everyone(200) },
  'GET /api/user/': { A: { ...everyone(200), anonymous: 401 } },
  'POST /api/login/': { A: everyone(200) },
  'POST /api/logout/': { A: everyone(200) },
  // Each signed-in user's own account, whatever their role; staff complete their sign-in first.
  'POST /api/account/password/': { A: { ...everyone(200), anonymous: 401, pendingAdminA: NO_SECOND_FACTOR } },
  'GET /api/account/sessions/': { A: { ...everyone(200), anonymous: 401, pendingAdminA: NO_SECOND_FACTOR } },
  'POST /api/account/sessions/sign-out-others/': {
    A: { ...everyone(200), anonymous: 401, pendingAdminA: NO_SECOND_FACTOR },
  },
  'POST /api/account/language/': { A: { ...everyone(200), anonymous: 401, pendingAdminA: NO_SECOND_FACTOR } },
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
  'GET /api/dashboard/': { A: staff(200) },
  'GET /api/dashboard/instruments/': { A: staff(200) },
  'GET /api/dashboard/flagged/': { A: namesReaders(200) },
  'GET /api/dashboard/events/': { A: staff(200) },
  'GET /api/dashboard/export.csv': { A: namesReaders(200) },
  'GET /api/survey-templates/': { A: admins(200) },
  'POST /api/survey-templates/': { A: admins(201) },
  'DELETE /api/survey-templates/': ownerAdmin(200),
  'POST /api/survey-templates/:id/use/': ownerAdmin(200),
  'GET /api/survey-templates/:id/questions/': ownerAdmin(200),
  'POST /api/survey-templates/:id/questions/': ownerAdmin(201),
  'POST /api/survey-templates/:id/instruments/': ownerAdmin(201),
  'PATCH /api/survey-templates/:id/questions/:questionId/': {
    ...ownerAdmin(200),
    extra: [
      { actor: 'adminA', target: 'A+B', status: 404, why: "A's own template with B's question" },
      { actor: 'adminB', target: 'A+B', status: 404, why: "A's template with B's own question" },
    ],
  },
  'PUT /api/survey-templates/:id/questions/:questionId/translations/:language/': {
    ...ownerAdmin(200),
    extra: [
      { actor: 'adminA', target: 'A+B', status: 404, why: "A's own template with B's question" },
      { actor: 'adminB', target: 'A+B', status: 404, why: "A's template with B's own question" },
    ],
  },
  'DELETE /api/survey-templates/:id/questions/:questionId/translations/:language/': {
    ...ownerAdmin(200),
    extra: [
      { actor: 'adminA', target: 'A+B', status: 404, why: "A's own template with B's question" },
      { actor: 'adminB', target: 'A+B', status: 404, why: "A's template with B's own question" },
    ],
  },
  'DELETE /api/survey-templates/:id/questions/': {
    ...ownerAdmin(200),
    extra: [
      { actor: 'adminA', target: 'A+B', status: 404, why: "A's own template with B's question" },
      { actor: 'adminB', target: 'A+B', status: 404, why: "A's template with B's own question" },
    ],
  },
  'POST /api/survey/': {
    A: { ...everyone(403), anonymous: 401, studentA: 200, studentSso: 200 },
    B: { ...everyone(403), anonymous: 401, studentA: 404, studentSso: 404 },
  },
  'POST /api/survey/link/:hashLink/': {
    A: { ...everyone(403), anonymous: 200, studentA: 200, studentSso: 200 },
    B: { ...everyone(403), anonymous: 200 },
  },
  // Anyone may ask for a code for an address of the link's institution, and gets the same answer.
  'POST /api/verify/start/': { A: everyone(200), B: everyone(200) },
  'POST /api/password-reset/': { A: everyone(200), B: everyone(200) },
  'POST /api/password-reset/:token/': { A: everyone(200), B: everyone(200) },
  'POST /api/register/resend-code/': { A: everyone(200), B: everyone(200) },
  'POST /api/verify/check/': { A: everyone(400), B: everyone(400) },
  'GET /api/get-user-survey-questions/': {
    A: { ...everyone(200), anonymous: 401, superuser: 404, pendingAdminA: NO_SECOND_FACTOR },
  },
  // The link is the capability: whoever holds it may read its questions (design section 5).
  'GET /api/get-user-survey-questions/:hashLink/': { A: everyone(200), B: everyone(200) },
  'POST /api/autosave/': ownerDraft,
  'GET /api/autosave/load/:templateId': ownerDraft,
  'GET /api/autosave/load/:templateId/': ownerDraft,
  'DELETE /api/autosave/clear/:templateId/': ownerDraft,
  'GET /api/staff/': { A: admins(200) },
  'POST /api/staff/': { A: admins(201) },
  'PUT /api/staff/:id/': ownerAdmin(200),
  'DELETE /api/staff/:id/': ownerAdmin(200),
  // Both institutions of the world have single sign-on; a new permission replaces the last.
  'POST /api/staff/:id/sso-link/': ownerAdmin(200),
  'POST /api/staff/invitations/:id/resend/': ownerAdmin(200),
  'DELETE /api/staff/invitations/:id/': ownerAdmin(200),
  'GET /api/staff/invite/:token/': { A: everyone(200), B: everyone(200) },
  'POST /api/staff/invite/:token/': { A: everyone(200), B: everyone(200) },
  'GET /api/audit/': { A: admins(200) },
  'GET /api/audit/export.csv': { A: admins(200) },
  'GET /api/institution/settings/': { A: admins(200) },
  'PUT /api/institution/settings/': { A: admins(200) },
  'GET /api/institution/sso/': { A: admins(200) },
  'PUT /api/institution/sso/': { A: admins(200) },
  'DELETE /api/institution/sso/': { A: admins(200) },
  // Admins get as far as the test itself, which refuses the loopback provider with its reason.
  'POST /api/institution/sso/test/': { A: admins(400) },
  'GET /api/institution/retention/': { A: admins(200) },
  'PUT /api/institution/retention/': { A: admins(200) },
  'GET /api/legal-holds/': { A: admins(200) },
  // A hold names an address, not a row: each admin places it in their own institution.
  'POST /api/legal-holds/': { A: admins(200) },
  'POST /api/legal-holds/:id/lift/': ownerAdmin(200),
  // An erasure names an address, not a row: each admin reaches their own institution's students.
  'POST /api/erasures/preview/': { A: admins(200) },
  'POST /api/erasures/': { A: admins(200) },
  'GET /api/records-requests/': { A: admins(200) },
  'POST /api/records-requests/': { A: admins(200) },
  'POST /api/records-requests/:id/fulfil/': ownerAdmin(200),
  // A student's own records: the signed-in student alone, named by no id.
  'GET /api/account/records/': {
    A: { ...everyone(403), anonymous: 401, studentA: 200, studentSso: 200 },
  },
  // The login page asks before anyone is signed in; the answer names no one.
  'POST /api/sso/discover/': { A: everyone(200) },
  'GET /api/sso/start/': { A: everyone(302) },
  'GET /api/sso/callback/': { A: everyone(302) },
  // Anyone signed in to an institution may link their own account; its provider is down here.
  'POST /api/sso/link/': {
    A: { ...everyone(400), anonymous: 401, superuser: 403, pendingAdminA: NO_SECOND_FACTOR },
  },
  'GET /api/cases/': { A: namesReaders(200) },
  'GET /api/cases/export.csv': { A: namesReaders(200) },
  'GET /api/cases/:id/': ownerCaseWorker(200),
  'POST /api/cases/:id/acknowledge/': ownerCaseWorker(200),
  'POST /api/cases/:id/assign/': ownerCaseWorker(200),
  'POST /api/cases/:id/notes/': ownerCaseWorker(200),
  'POST /api/cases/:id/resolve/': ownerCaseWorker(200),
  'POST /api/cases/:id/reopen/': ownerCaseWorker(200),
  'GET /api/students/:id/history/': ownerCaseWorker(200),
  'GET /api/roster/': { A: admins(200) },
  'POST /api/roster/': { A: admins(200) },
  'GET /api/campaigns/': { A: admins(200) },
  // The template and the campaigns are the institution's: another admin finds none of them.
  'POST /api/campaigns/': ownerAdmin(201),
  'POST /api/campaigns/:id/pause/': ownerAdmin(200),
  'POST /api/campaigns/:id/resume/': ownerAdmin(200),
  'POST /api/campaigns/:id/cancel/': ownerAdmin(200),
  // Counts for every staff role of the institution (names only to admins and counsellors).
  'GET /api/campaigns/:id/not-answered/': (() => {
    const { A, B } = ownerAdmin(200);
    return {
      A: { ...A, counsellorA: 200, viewerA: 200 },
      B: { ...(B as Statuses), counsellorA: 404, viewerA: 404 },
    };
  })(),
  // An anonymous campaign's figures: the same for every staff role of the institution.
  'GET /api/campaigns/:id/results/': (() => {
    const { A, B } = ownerAdmin(200);
    return {
      A: { ...A, counsellorA: 200, viewerA: 200 },
      B: { ...(B as Statuses), counsellorA: 404, viewerA: 404 },
    };
  })(),
  // The offer is the only key: whoever holds it (the tab that answered) may ask to be contacted.
  'POST /api/survey/contact/': { A: everyone(200), B: everyone(200) },
  'POST /api/roster/students/:id/left/': ownerAdmin(200),
  // The personal link is the invited student's: a visitor holding it answers as them; every
  // signed-in account that is not them (another student, staff) is refused.
  'GET /api/survey/invite/:token/': {
    A: { ...everyone(403), anonymous: 200 },
    B: { ...everyone(403), anonymous: 200 },
  },
  'POST /api/survey/invite/:token/': {
    A: { ...everyone(403), anonymous: 200 },
    B: { ...everyone(403), anonymous: 200 },
  },
  'GET /api/second-factor/': { A: secondFactor(200, 200) },
  // Staff add passkeys; the admin without a second factor may add one as their first.
  'POST /api/passkeys/registration/options/': { A: secondFactor(200, 200) },
  'POST /api/passkeys/registration/': { A: secondFactor(400, 400) },
  // Visitors sign in with a passkey; anyone signed in already is told so (409).
  'POST /api/passkeys/authentication/options/': {
    A: { ...everyone(409), anonymous: 200 },
  },
  'POST /api/passkeys/authentication/': {
    A: { ...everyone(409), anonymous: 400 },
  },
  // The world's admins have an app already (409); the admin without one may start setting one up.
  'POST /api/second-factor/totp/setup/': { A: secondFactor(409, 200) },
  // Admins: already set up; the admin without one: no set-up started in this world.
  'POST /api/second-factor/totp/confirm/': { A: secondFactor(409, 409) },
  // Admins: already confirmed; the admin without one has nothing to prove yet.
  'POST /api/second-factor/verify/': { A: secondFactor(409, 409) },
  // Staff with an app (and a fresh factor) may start replacing it; nothing waits to be confirmed.
  'POST /api/second-factor/totp/replacement/': { A: secondFactor(200, NO_SECOND_FACTOR) },
  'POST /api/second-factor/totp/replacement/confirm/': { A: secondFactor(409, NO_SECOND_FACTOR) },
  'POST /api/second-factor/recovery-codes/': { A: secondFactor(200, NO_SECOND_FACTOR) },
  // A step-up is for a complete staff sign-in; nobody's app shows the code sent (400).
  'POST /api/second-factor/step-up/': { A: secondFactor(400, NO_SECOND_FACTOR) },
  // Each staff member lists and removes their own passkeys only (none in this world: 404).
  'GET /api/passkeys/': { A: secondFactor(200, NO_SECOND_FACTOR) },
  'DELETE /api/passkeys/:id/': { A: secondFactor(404, NO_SECOND_FACTOR) },
  // No staff member of the world has a passkey to prove again (409); a forged answer is refused.
  'POST /api/passkeys/step-up/options/': { A: secondFactor(409, NO_SECOND_FACTOR) },
  'POST /api/passkeys/step-up/': { A: secondFactor(400, NO_SECOND_FACTOR) },
  'POST /api/staff/:id/second-factor/reset/': {
    A: {
      anonymous: 401,
      studentA: 403,
      studentSso: 403,
      adminA: 200,
      counsellorA: 403,
      viewerA: 403,
      adminB: 404,
      superuser: 403,
      pendingAdminA: NO_SECOND_FACTOR,
    },
    B: {
      anonymous: 401,
      studentA: 403,
      studentSso: 403,
      adminA: 404,
      counsellorA: 403,
      viewerA: 403,
      adminB: 200,
      superuser: 403,
      pendingAdminA: NO_SECOND_FACTOR,
    },
  },
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
  'POST /api/account/password/': { actor: 'adminA', target: 'A', control: 200 },
  'POST /api/account/sessions/sign-out-others/': { actor: 'adminA', target: 'A', control: 200 },
  'POST /api/account/language/': { actor: 'studentA', target: 'A', control: 200 },
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
  'POST /api/survey-templates/:id/instruments/': { actor: 'adminA', target: 'A', control: 201 },
  'PATCH /api/survey-templates/:id/questions/:questionId/': { actor: 'adminA', target: 'A', control: 200 },
  'PUT /api/survey-templates/:id/questions/:questionId/translations/:language/': {
    actor: 'adminA',
    target: 'A',
    control: 200,
  },
  'DELETE /api/survey-templates/:id/questions/:questionId/translations/:language/': {
    actor: 'adminA',
    target: 'A',
    control: 200,
  },
  'POST /api/survey/': { actor: 'studentA', target: 'A', control: 200 },
  'POST /api/survey/link/:hashLink/': { actor: 'studentA', target: 'A', control: 200 },
  'POST /api/verify/start/': { actor: 'anonymous', target: 'A', control: 200 },
  'POST /api/password-reset/': { actor: 'anonymous', target: 'A', control: 200 },
  'POST /api/password-reset/:token/': { actor: 'anonymous', target: 'A', control: 200 },
  'POST /api/register/resend-code/': { actor: 'anonymous', target: 'A', control: 200 },
  'POST /api/verify/check/': { actor: 'anonymous', target: 'A', control: 400 },
  'POST /api/autosave/': { actor: 'studentA', target: 'A', control: 200 },
  'DELETE /api/autosave/clear/:templateId/': { actor: 'studentA', target: 'A', control: 200 },
  'POST /api/staff/': { actor: 'adminA', target: 'A', control: 201 },
  'PUT /api/staff/:id/': { actor: 'adminA', target: 'A', control: 200 },
  'DELETE /api/staff/:id/': { actor: 'adminA', target: 'A', control: 200 },
  'POST /api/staff/invitations/:id/resend/': { actor: 'adminA', target: 'A', control: 200 },
  'DELETE /api/staff/invitations/:id/': { actor: 'adminA', target: 'A', control: 200 },
  'POST /api/staff/invite/:token/': { actor: 'anonymous', target: 'A', control: 200 },
  'PUT /api/institution/settings/': { actor: 'adminA', target: 'A', control: 200 },
  'PUT /api/institution/sso/': { actor: 'adminA', target: 'A', control: 200 },
  'DELETE /api/institution/sso/': { actor: 'adminA', target: 'A', control: 200 },
  'POST /api/institution/sso/test/': { actor: 'adminA', target: 'A', control: 400 },
  'PUT /api/institution/retention/': { actor: 'adminA', target: 'A', control: 200 },
  'POST /api/legal-holds/': { actor: 'adminA', target: 'A', control: 200 },
  'POST /api/legal-holds/:id/lift/': { actor: 'adminA', target: 'A', control: 200 },
  'POST /api/erasures/preview/': { actor: 'adminA', target: 'A', control: 200 },
  'POST /api/erasures/': { actor: 'adminA', target: 'A', control: 200 },
  'POST /api/records-requests/': { actor: 'adminA', target: 'A', control: 200 },
  'POST /api/records-requests/:id/fulfil/': { actor: 'adminA', target: 'A', control: 200 },
  'POST /api/sso/discover/': { actor: 'anonymous', target: 'A', control: 200 },
  'POST /api/sso/link/': { actor: 'studentA', target: 'A', control: 400 },
  'POST /api/cases/:id/acknowledge/': { actor: 'adminA', target: 'A', control: 200 },
  'POST /api/cases/:id/assign/': { actor: 'adminA', target: 'A', control: 200 },
  'POST /api/cases/:id/notes/': { actor: 'adminA', target: 'A', control: 200 },
  'POST /api/cases/:id/resolve/': { actor: 'adminA', target: 'A', control: 200 },
  'POST /api/cases/:id/reopen/': { actor: 'adminA', target: 'A', control: 200 },
  'POST /api/roster/': { actor: 'adminA', target: 'A', control: 200 },
  'POST /api/campaigns/': { actor: 'adminA', target: 'A', control: 201 },
  'POST /api/campaigns/:id/pause/': { actor: 'adminA', target: 'A', control: 200 },
  'POST /api/campaigns/:id/resume/': { actor: 'adminA', target: 'A', control: 200 },
  'POST /api/campaigns/:id/cancel/': { actor: 'adminA', target: 'A', control: 200 },
  'POST /api/roster/students/:id/left/': { actor: 'adminA', target: 'A', control: 200 },
  'POST /api/survey/invite/:token/': { actor: 'anonymous', target: 'A', control: 200 },
  'POST /api/survey/contact/': { actor: 'anonymous', target: 'A', control: 200 },
  'POST /api/second-factor/totp/setup/': { actor: 'pendingAdminA', target: 'A', control: 200 },
  'POST /api/passkeys/registration/options/': { actor: 'adminA', target: 'A', control: 200 },
  'POST /api/passkeys/registration/': { actor: 'adminA', target: 'A', control: 400 },
  'POST /api/passkeys/authentication/options/': { actor: 'anonymous', target: 'A', control: 200 },
  'POST /api/passkeys/authentication/': { actor: 'anonymous', target: 'A', control: 400 },
  'POST /api/second-factor/totp/confirm/': { actor: 'pendingAdminA', target: 'A', control: 409 },
  'POST /api/second-factor/verify/': { actor: 'adminA', target: 'A', control: 409 },
  'POST /api/second-factor/totp/replacement/': { actor: 'adminA', target: 'A', control: 200 },
  'POST /api/second-factor/totp/replacement/confirm/': { actor: 'adminA', target: 'A', control: 409 },
  'POST /api/second-factor/recovery-codes/': { actor: 'adminA', target: 'A', control: 200 },
  'POST /api/staff/:id/second-factor/reset/': { actor: 'adminA', target: 'A', control: 200 },
  'POST /api/staff/:id/sso-link/': { actor: 'adminA', target: 'A', control: 200 },
  'POST /api/second-factor/step-up/': { actor: 'adminA', target: 'A', control: 400 },
  'DELETE /api/passkeys/:id/': { actor: 'adminA', target: 'A', control: 404 },
  'POST /api/passkeys/step-up/options/': { actor: 'adminA', target: 'A', control: 409 },
  'POST /api/passkeys/step-up/': { actor: 'adminA', target: 'A', control: 400 },
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
  'POST /api/account/password/': as('studentA'),
  'GET /api/account/sessions/': as('studentA'),
  'POST /api/account/sessions/sign-out-others/': as('studentA'),
  'POST /api/account/language/': as('studentA'),
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
  'GET /api/dashboard/instruments/': as('adminA'),
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
  'POST /api/survey-templates/:id/instruments/': as('adminA'),
  'PATCH /api/survey-templates/:id/questions/:questionId/': as('adminA'),
  'PUT /api/survey-templates/:id/questions/:questionId/translations/:language/': as('adminA'),
  'DELETE /api/survey-templates/:id/questions/:questionId/translations/:language/': as('adminA'),
  'POST /api/survey/': as('studentA'),
  'POST /api/survey/link/:hashLink/': as('anonymous'),
  'POST /api/verify/start/': as('anonymous'),
  'POST /api/password-reset/': as('anonymous'),
  'POST /api/password-reset/:token/': as('anonymous'),
  'POST /api/register/resend-code/': as('anonymous'),
  'POST /api/verify/check/': as('anonymous'),
  'GET /api/get-user-survey-questions/': as('studentA'),
  'GET /api/get-user-survey-questions/:hashLink/': as('anonymous'),
  'POST /api/autosave/': as('studentA'),
  'GET /api/autosave/load/:templateId': as('studentA'),
  'GET /api/autosave/load/:templateId/': as('studentA'),
  'DELETE /api/autosave/clear/:templateId/': as('studentA'),
  'GET /api/staff/': as('adminA'),
  'POST /api/staff/': as('adminA'),
  'PUT /api/staff/:id/': as('adminA'),
  'DELETE /api/staff/:id/': as('adminA'),
  'POST /api/staff/invitations/:id/resend/': as('adminA'),
  'DELETE /api/staff/invitations/:id/': as('adminA'),
  'GET /api/staff/invite/:token/': as('anonymous'),
  'POST /api/staff/invite/:token/': as('anonymous'),
  'GET /api/audit/': as('adminA'),
  'GET /api/audit/export.csv': as('adminA'),
  'GET /api/institution/settings/': as('adminA'),
  'PUT /api/institution/settings/': as('adminA'),
  'GET /api/institution/sso/': as('adminA'),
  'PUT /api/institution/sso/': as('adminA'),
  'DELETE /api/institution/sso/': as('adminA'),
  'POST /api/institution/sso/test/': as('adminA'),
  'GET /api/institution/retention/': as('adminA'),
  'PUT /api/institution/retention/': as('adminA'),
  'GET /api/legal-holds/': as('adminA'),
  'POST /api/legal-holds/': as('adminA'),
  'POST /api/legal-holds/:id/lift/': as('adminA'),
  'POST /api/erasures/preview/': as('adminA'),
  'POST /api/erasures/': as('adminA'),
  'GET /api/records-requests/': as('adminA'),
  'POST /api/records-requests/': as('adminA'),
  'POST /api/records-requests/:id/fulfil/': as('adminA'),
  'GET /api/account/records/': as('studentA'),
  'POST /api/sso/discover/': as('anonymous'),
  'GET /api/sso/start/': as('anonymous'),
  'GET /api/sso/callback/': as('anonymous'),
  'POST /api/sso/link/': as('studentA'),
  'GET /api/cases/': as('adminA'),
  'GET /api/cases/export.csv': as('adminA'),
  'GET /api/cases/:id/': as('adminA'),
  'POST /api/cases/:id/acknowledge/': as('adminA'),
  'POST /api/cases/:id/assign/': as('adminA'),
  'POST /api/cases/:id/notes/': as('adminA'),
  'POST /api/cases/:id/resolve/': as('adminA'),
  'POST /api/cases/:id/reopen/': as('adminA'),
  'GET /api/students/:id/history/': as('adminA'),
  'GET /api/roster/': as('adminA'),
  'POST /api/roster/': as('adminA'),
  'GET /api/campaigns/': as('adminA'),
  'POST /api/campaigns/': as('adminA'),
  'POST /api/campaigns/:id/pause/': as('adminA'),
  'POST /api/campaigns/:id/resume/': as('adminA'),
  'POST /api/campaigns/:id/cancel/': as('adminA'),
  'GET /api/campaigns/:id/not-answered/': as('adminA'),
  'GET /api/campaigns/:id/results/': as('adminA'),
  'POST /api/survey/contact/': as('anonymous'),
  'POST /api/roster/students/:id/left/': as('adminA'),
  'GET /api/survey/invite/:token/': as('anonymous'),
  'POST /api/survey/invite/:token/': as('anonymous'),
  'GET /api/second-factor/': as('adminA'),
  'POST /api/passkeys/registration/options/': as('adminA'),
  'POST /api/passkeys/registration/': as('adminA'),
  'POST /api/passkeys/authentication/options/': as('anonymous'),
  'POST /api/passkeys/authentication/': as('anonymous'),
  'POST /api/second-factor/totp/setup/': as('pendingAdminA'),
  'POST /api/second-factor/totp/confirm/': as('pendingAdminA'),
  'POST /api/second-factor/verify/': as('adminA'),
  'POST /api/second-factor/recovery-codes/': as('adminA'),
  'POST /api/second-factor/totp/replacement/': as('adminA'),
  'POST /api/second-factor/totp/replacement/confirm/': as('adminA'),
  'POST /api/staff/:id/second-factor/reset/': as('adminA'),
  'POST /api/staff/:id/sso-link/': as('adminA'),
  'POST /api/second-factor/step-up/': as('adminA'),
  'GET /api/passkeys/': as('adminA'),
  'DELETE /api/passkeys/:id/': as('adminA'),
  'POST /api/passkeys/step-up/options/': as('adminA'),
  'POST /api/passkeys/step-up/': as('adminA'),
};

/** Routes whose success is not a JSON body (pages, files, streams); their failures still are. */
export function answersWithJson(route: RouteKey): boolean {
  return !/^(GET \/api\/docs|GET \/api\/contact\/page\.css|POST \/api\/contact\/|GET \/api\/dashboard\/(events|export)|GET \/api\/audit\/export|GET \/api\/cases\/export|GET \/api\/sso\/(start|callback)\/)/.test(
    route,
  );
}
