/**
 * The shared cast of the hardening suites: one app per dialect, and per endpoint under test a
 * fresh "world" of two institutions (A and B) with their admins, students, templates, questions,
 * links, submissions and drafts, plus a superuser. Requests go through app.inject() with exact
 * control over cookies, CSRF token, Origin, client address and raw body.
 */

import crypto from 'node:crypto';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { sql } from 'kysely';
import type { StoredQuestionType } from '../../../src/common/schemas/templates';
import type { Db } from '../../../src/server/db';
import type { Database, SignInMethod } from '../../../src/server/db/types';
import { contactOfferHash, dayOf } from '../../../src/server/features/campaigns';
import { createInstitution } from '../../../src/server/features/institutions';
import { inviteMember } from '../../../src/server/features/staff';
import { addQuestion, createTemplate } from '../../../src/server/features/templates';
import { seal, sealingKey } from '../../../src/server/lib/sealed';
import { createSession, SESSION_COOKIE } from '../../../src/server/lib/sessions';
import { DAY } from '../../../src/server/lib/time';
import {
  createTestApp,
  createTestAppOn,
  enrolAuthenticatorApp,
  TEST_SECRET,
  TestAgent,
  type TestContext,
} from '../../helpers/app';
import {
  createTestDatabase,
  type DatabaseImage,
  dropInBackground,
  type TestDialect,
} from '../../helpers/databases';
import { makeUser, TEST_PASSWORD } from '../../helpers/factories';
import { passedConnectionTest } from '../../helpers/sso';

/**
 * `pendingAdminA` is an admin of A who signed in with a password and has no second factor yet
 * (design section 11): refused on every staff endpoint until they set one up. `studentSso` is a
 * student of A signed in through A's single sign-on: a student like any other.
 */
export const ACTORS = [
  'anonymous',
  'studentA',
  'studentSso',
  'adminA',
  'counsellorA',
  'viewerA',
  'adminB',
  'superuser',
  'pendingAdminA',
] as const;
export type ActorName = (typeof ACTORS)[number];
/** Extra identities the suites need besides the five of the matrix. */
export type AnyActor = ActorName | 'studentB';

/** Whose data a request aims at: A's ids, B's ids, or A's template with B's question. */
export type Target = 'A' | 'B' | 'A+B';

export interface Actor {
  name: AnyActor;
  /** Institution the actor belongs to, if any. */
  institution: 'A' | 'B' | null;
  userId: number | null;
  email: string | null;
  cookies: Record<string, string>;
  csrf: string;
  /** How the actor's session was signed in. */
  signInMethod: SignInMethod;
}

export interface QuestionInfo {
  id: number;
  type: StoredQuestionType;
  category: string;
}

export interface InstitutionWorld {
  key: 'A' | 'B';
  id: number;
  name: string;
  domain: string;
  /** The active starter template and its questions. */
  templateId: number;
  questions: QuestionInfo[];
  hashLink: string;
  /** A second, inactive template with one question: what deletes and activations aim at. */
  spareTemplateId: number;
  spareQuestionId: number;
  spareHashLink: string;
  /** A viewer of this institution that role changes and removals aim at. */
  spareMemberId: number;
  /** A waiting staff invitation that re-sends and withdrawals aim at. */
  spareInvitationId: number;
  /** The link of a waiting invitation that no request accepts: what lookups read. */
  lookupInvitationToken: string;
  /** Links of waiting invitations, each good for one acceptance; handed out in turn. */
  invitationTokens: string[];
  invitationCursor: number;
  /** A student who forgot their password, and mailed links to choose a new one, each good once; handed out in turn. */
  forgetfulEmail: string;
  resetTokens: string[];
  resetCursor: number;
  /** Legal holds on students of the institution, each lifted once; handed out in turn. */
  legalHoldIds: number[];
  legalHoldCursor: number;
  /** Open records requests of students of the institution, each fulfilled once; handed out in turn. */
  recordsRequestIds: number[];
  recordsRequestCursor: number;
  /** The open case a flagged answer opened, and its student (a respondent id). */
  caseId: number;
  studentId: number;
  /** Open cases for resolving: the first for the institution's admin, the second for its counsellor. */
  spareCaseIds: number[];
  /** A weekly campaign of the roster group "Hardening" that has sent its first round, and a paused one. */
  campaignId: number;
  pausedCampaignId: number;
  /** A roster student in no campaign's group: the one marked as left (and back). */
  rosterStudentId: number;
  /**
   * Personal link tokens of the roster students invited by that round. A link answers once, so
   * each successful answer needs its own: the first is only ever read, the others are handed out
   * one per answer (see nextInviteToken).
   */
  inviteTokens: string[];
  /** An anonymous campaign, scheduled: its results and who has not answered. */
  anonymousCampaignId: number;
  /**
   * Offers to be contacted that an anonymous answer gave, each usable once; handed out one per
   * request (see nextContactToken).
   */
  contactTokens: string[];
  /** An admin of the institution with an authenticator app, not an actor: whose second factor is reset. */
  colleagueId: number;
  /**
   * Strings stored in this institution's private data (submissions, drafts). No response to
   * anyone outside the institution may contain one.
   */
  secrets: string[];
}

export interface World {
  tag: string;
  A: InstitutionWorld;
  B: InstitutionWorld;
  actors: Record<AnyActor, Actor>;
  /** A student of A who owns no secrets, for login requests whatever the actor. */
  member: { email: string; password: string };
}

export const FORM = 'application/x-www-form-urlencoded';
export const CSV = 'text/csv';

export interface Req {
  method: 'GET' | 'POST' | 'DELETE' | 'PUT' | 'PATCH';
  url: string;
  /** A JS value sent as JSON, or a raw string sent as-is (with `contentType`). */
  body?: unknown;
  raw?: string;
  contentType?: string;
  headers?: Record<string, string>;
}

export interface Res {
  status: number;
  text: string;
  json: unknown;
  headers: Record<string, string | string[] | number | undefined>;
}

let addressCounter = 0;
/** A new client address per request, so per-IP rate limits never decide a hardening outcome. */
export function freshAddress(): string {
  addressCounter += 1;
  return `198.18.${(addressCounter >> 8) & 255}.${addressCounter & 255}`;
}

export interface SendOptions {
  /** Override or drop (null) the X-CSRFToken header the actor would send on unsafe methods. */
  csrf?: string | null;
  /** Extra cookies replacing the actor's. */
  cookies?: Record<string, string>;
  origin?: string;
  remoteAddress?: string;
}

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);

export async function send(
  app: FastifyInstance,
  actor: Actor,
  req: Req,
  options: SendOptions = {},
): Promise<Res> {
  const headers: Record<string, string> = { ...req.headers };
  if (!SAFE.has(req.method)) {
    const token = options.csrf === undefined ? actor.csrf : options.csrf;
    if (token !== null) headers['x-csrftoken'] = token;
  }
  if (options.origin) headers.origin = options.origin;
  let payload: InjectOptions['payload'];
  if (req.raw !== undefined) {
    payload = req.raw;
    headers['content-type'] = req.contentType ?? 'application/json';
  } else if (req.body !== undefined) {
    payload = JSON.stringify(req.body);
    headers['content-type'] = req.contentType ?? 'application/json';
  }
  const cookies = { ...actor.cookies, ...options.cookies };
  const remoteAddress = options.remoteAddress ?? freshAddress();
  let text: string;
  let status: number;
  let responseHeaders: Res['headers'];
  if (req.url.startsWith('/api/dashboard/events/')) {
    // The live dashboard never ends by itself: read its first event, then hang up.
    const response = await app.inject({
      method: req.method,
      url: req.url,
      headers,
      cookies,
      remoteAddress,
      ...(payload === undefined ? {} : { payload }),
      payloadAsStream: true,
    });
    text = await firstChunk(response.stream());
    // Hang up as a browser would, so the server lets the stream go (and frees its slot).
    response.raw.res.destroy();
    status = response.statusCode;
    responseHeaders = response.headers;
  } else {
    // The actor's own cookies on a client of its own: nothing it is answered changes the actor.
    const client = new TestAgent(app);
    for (const [name, value] of Object.entries(cookies)) client.jar.set(name, value);
    const response = await client.request({
      method: req.method,
      url: req.url,
      headers,
      remoteAddress,
      // The CSRF header is exactly what the options say, never fetched or added by the client.
      csrf: false,
      ...(payload === undefined ? {} : { payload }),
    });
    text = response.text;
    status = response.status;
    responseHeaders = response.headers;
  }
  let json: unknown = null;
  if (String(responseHeaders['content-type'] ?? '').includes('application/json')) {
    try {
      json = JSON.parse(text);
    } catch {
      json = null;
    }
  }
  return { status, text, json, headers: responseHeaders };
}

function firstChunk(stream: NodeJS.ReadableStream & { destroy?: () => void }): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    stream.on('data', (chunk: Buffer) => {
      text += chunk.toString('utf8');
      // The first event is complete at its blank line.
      if (text.includes('\n\n') && text.includes('data:')) {
        stream.destroy?.();
        resolve(text);
      }
    });
    stream.on('error', reject);
    stream.on('end', () => resolve(text));
  });
}

// ---------------------------------------------------------------------------------------------
// Building a world.

/** An actor with a session of its own for `user` (or an anonymous visitor), and a CSRF token for it. */
export async function actorFor(
  app: FastifyInstance,
  db: Db,
  name: AnyActor,
  institution: 'A' | 'B' | null,
  user: { id: number; email: string } | null,
  signInMethod: SignInMethod = 'password',
): Promise<Actor> {
  const cookies: Record<string, string> = {};
  if (user) {
    // Sessions are created directly: the superuser cannot log in, and argon2 logins for every
    // actor of every world would only slow the suites down. Login itself is tested elsewhere.
    const { sessionId } = await createSession(db.kysely, user.id, signInMethod);
    cookies[SESSION_COOKIE] = sessionId;
  }
  const response = await app.inject({ method: 'GET', url: '/api/csrf/', cookies });
  for (const cookie of response.cookies) cookies[cookie.name] = cookie.value;
  const csrf = (response.json() as { csrftoken: string }).csrftoken;
  return {
    name,
    institution,
    userId: user?.id ?? null,
    email: user?.email ?? null,
    cookies,
    csrf,
    signInMethod,
  };
}

/**
 * A staff member with an authenticator app, set up through the API as a person does it (from a
 * session of its own). Their actor's session is then one that proved it.
 */
async function withAuthenticatorApp(app: FastifyInstance, db: Db, user: { id: number; email: string }) {
  const agent = new TestAgent(app);
  agent.jar.set(SESSION_COOKIE, (await createSession(db.kysely, user.id)).sessionId);
  // Its own client address, like every request of the suites: per-IP limits never decide an outcome.
  await enrolAuthenticatorApp(agent, user.email, { remoteAddress: freshAddress() });
  return user;
}

async function questionsOf(db: Db, templateId: number): Promise<QuestionInfo[]> {
  const rows = await db.kysely
    .selectFrom('questions')
    .select(['id', 'question_type', 'category'])
    .where('template_id', '=', templateId)
    .orderBy('position')
    .orderBy('id')
    .execute();
  return rows.map((row) => ({ id: row.id, type: row.question_type, category: row.category }));
}

/** Answers to every question: Likert 1 (all fine) and `text` for written ones. */
export function answersFor(questions: QuestionInfo[], text = 'All good this week.'): Record<string, string> {
  return Object.fromEntries(
    questions.map((question) => [String(question.id), question.type === 'likert' ? '1' : text]),
  );
}

/** Enough waiting invitations for every acceptance the suites send to one institution of a world (one per actor). */
const INVITATIONS_PER_WORLD = 9;
const LEGAL_HOLDS_PER_WORLD = 40;

/** The token of the invitation mailed to an address, read from its mail as the invitee would. */
export async function mailedInvitationToken(db: Db, email: string): Promise<string> {
  const mail = await db.kysely
    .selectFrom('mail_outbox')
    .select('body')
    .where('to_address', '=', email)
    .orderBy('id', 'desc')
    .executeTakeFirstOrThrow();
  const token = /\/staff\/invite\/([A-Za-z0-9_-]+)\//.exec(mail.body)?.[1];
  if (!token) throw new Error(`no invitation link in the mail to ${email}`);
  return token;
}

/** The next unused link to choose a new password (after the last, they come round again, used). */
export function nextResetToken(inst: InstitutionWorld): string {
  const token = inst.resetTokens[inst.resetCursor % inst.resetTokens.length] as string;
  inst.resetCursor += 1;
  return token;
}

/**
 * Links to choose a new password, stored as a request stores them: one per student, since using
 * one retires every other link of its account.
 */
async function addPasswordResets(db: Db, institutionId: number, domain: string) {
  const at = Date.now();
  const tokens: string[] = [];
  const rows = [];
  for (let index = 0; index < INVITATIONS_PER_WORLD; index += 1) {
    const forgetful = await makeUser(db.kysely, { email: `forgetful-${index}@${domain}`, institutionId });
    const token = crypto.randomBytes(32).toString('base64url');
    tokens.push(token);
    rows.push({
      user_id: forgetful.id,
      token_hash: crypto.createHash('sha256').update(token).digest('hex'),
      created_at: at,
      expires_at: at + 30 * 60_000,
      used_at: null,
    });
  }
  await db.kysely.insertInto('password_resets').values(rows).execute();
  return { forgetfulEmail: `forgetful-0@${domain}`, resetTokens: tokens, resetCursor: 0 };
}

/** Legal holds to lift, placed on students who never answered: lifting one changes nothing else. */
async function addLegalHolds(db: Db, institutionId: number, domain: string) {
  const rows = Array.from({ length: LEGAL_HOLDS_PER_WORLD }, (_, index) => ({
    institution_id: institutionId,
    email: `held-${index}@${domain}`,
    reason: 'Records request',
    placed_by: null,
    placed_at: Date.now(),
  }));
  const ids = await db.kysely.insertInto('legal_holds').values(rows).returning('id').execute();
  return { legalHoldIds: ids.map((row) => row.id), legalHoldCursor: 0 };
}

/** Open records requests to fulfil, of students who never answered: fulfilling one changes nothing else. */
async function addRecordsRequests(db: Db, institutionId: number, domain: string) {
  const rows = Array.from({ length: LEGAL_HOLDS_PER_WORLD }, (_, index) => ({
    institution_id: institutionId,
    email: `requested-${index}@${domain}`,
    note: null,
    opened_by: null,
    opened_at: Date.now(),
    due_at: Date.now() + 45 * 24 * 3_600_000,
  }));
  const ids = await db.kysely.insertInto('records_requests').values(rows).returning('id').execute();
  return { recordsRequestIds: ids.map((row) => row.id), recordsRequestCursor: 0 };
}

/** The next open records request of an institution (after the last, they come round again). */
export function nextRecordsRequestId(inst: InstitutionWorld): number {
  const id = inst.recordsRequestIds[inst.recordsRequestCursor % inst.recordsRequestIds.length] as number;
  inst.recordsRequestCursor += 1;
  return id;
}

/** The next legal hold of an institution still to lift (after the last, they come round again). */
export function nextLegalHoldId(inst: InstitutionWorld): number {
  const id = inst.legalHoldIds[inst.legalHoldCursor % inst.legalHoldIds.length] as number;
  inst.legalHoldCursor += 1;
  return id;
}

/** The next unused invitation link of an institution (after the last, they come round again). */
export function nextInvitationToken(inst: InstitutionWorld): string {
  const token = inst.invitationTokens[inst.invitationCursor % inst.invitationTokens.length] as string;
  inst.invitationCursor += 1;
  return token;
}

async function institutionWorld(
  app: FastifyInstance,
  db: Db,
  key: 'A' | 'B',
  tag: string,
): Promise<InstitutionWorld> {
  const name = `${key === 'A' ? 'North' : 'South'} ${tag}`;
  const domain = `${key.toLowerCase()}-${tag}.edu`;
  const { id } = await createInstitution(db.kysely, { name, domains: [domain] });
  const active = await db.kysely
    .selectFrom('active_templates')
    .innerJoin('survey_templates', 'survey_templates.id', 'active_templates.template_id')
    .select(['survey_templates.id', 'survey_templates.hash_link'])
    .where('active_templates.institution_id', '=', id)
    .executeTakeFirstOrThrow();
  const spare = await createTemplate({ db: db.kysely, institutionId: id });
  const spareQuestion = await addQuestion({
    db: db.kysely,
    institutionId: id,
    templateId: spare.id,
    questionText: `Spare question of ${name}`,
    questionType: 'likert',
    category: 'general',
    order: 1,
    answerChoices: null,
  });
  // Translated already, so a request to delete its translation has one to delete.
  await db.kysely
    .insertInto('question_translations')
    .values({
      question_id: spareQuestion.id,
      language: 'es',
      question_text: `Pregunta de repuesto de ${name}`,
      answer_choices: null,
      source_fingerprint: 'seeded',
      translated_by: null,
      translated_at: Date.now(),
    })
    .execute();
  const spareMember = await makeUser(db.kysely, {
    email: `spare-viewer@${domain}`,
    role: 'viewer',
    institutionId: id,
    name: `Spare viewer of ${name}`,
  });
  const inviter = { institutionId: id, userId: null, email: null, address: null };
  const mail = { brandName: 'Test', linkBase: 'http://localhost' };
  const spareInvitation = await inviteMember({
    db: db.kysely,
    actor: inviter,
    mail,
    email: `spare-invitee@${domain}`,
    name: 'Spare Invitee',
    role: 'counsellor',
  });
  const invitationTokens: string[] = [];
  // The first is only ever looked up; the rest are accepted, one per request.
  for (let index = 0; index <= INVITATIONS_PER_WORLD; index += 1) {
    const email = `invitee-${index}@${domain}`;
    await inviteMember({
      db: db.kysely,
      actor: inviter,
      mail,
      email,
      name: `Invitee ${index}`,
      role: 'viewer',
    });
    invitationTokens.push(await mailedInvitationToken(db, email));
  }
  const colleague = await makeUser(db.kysely, {
    email: `colleague@${domain}`,
    role: 'institution_admin',
    institutionId: id,
  });
  await withAuthenticatorApp(app, db, colleague);
  const resets = await addPasswordResets(db, id, domain);
  const holds = await addLegalHolds(db, id, domain);
  const requests = await addRecordsRequests(db, id, domain);
  return {
    ...resets,
    ...holds,
    ...requests,
    key,
    id,
    name,
    domain,
    spareMemberId: spareMember.id,
    spareInvitationId: spareInvitation.id,
    lookupInvitationToken: invitationTokens[0] as string,
    invitationTokens: invitationTokens.slice(1),
    invitationCursor: 0,
    templateId: active.id,
    questions: await questionsOf(db, active.id),
    hashLink: active.hash_link,
    spareTemplateId: spare.id,
    spareQuestionId: spareQuestion.id,
    spareHashLink: spare.hash_link,
    caseId: 0,
    studentId: 0,
    spareCaseIds: [],
    campaignId: 0,
    pausedCampaignId: 0,
    rosterStudentId: 0,
    inviteTokens: [],
    anonymousCampaignId: 0,
    contactTokens: [],
    colleagueId: colleague.id,
    secrets: [],
  };
}

/**
 * A roster of one student in the group "Hardening", a weekly campaign that has sent its first
 * round to them (its link's token read from the outbox), and a paused campaign.
 */
const INVITEES = 12;

async function addCampaigns(app: FastifyInstance, db: Db, inst: InstitutionWorld, admin: Actor) {
  const invitees = Array.from({ length: INVITEES }, (_, index) => `roster-invitee-${index}@${inst.domain}`);
  await expectOk(
    send(app, admin, {
      method: 'POST',
      url: '/api/roster/',
      contentType: CSV,
      raw: [
        'name,email,group',
        ...invitees.map((email, index) => `Invited ${index},${email},Hardening`),
        `Leaving Student,roster-leaving@${inst.domain},Leavers`,
      ].join('\n'),
    }),
  );
  inst.rosterStudentId = (
    await db.kysely
      .selectFrom('roster_students')
      .select('id')
      .where('email', '=', `roster-leaving@${inst.domain}`)
      .executeTakeFirstOrThrow()
  ).id;
  const campaign = (body: object) =>
    send(app, admin, {
      method: 'POST',
      url: '/api/campaigns/',
      body: {
        template_id: inst.templateId,
        groups: ['Hardening'],
        day: 'Monday',
        hour: 9,
        minute: 0,
        ampm: 'AM',
        recurring: true,
        ...body,
      },
    });
  inst.campaignId = (
    (await expectOk(campaign({ send_now: true }))).json as { campaign: { id: number } }
  ).campaign.id;
  inst.pausedCampaignId = ((await expectOk(campaign({}))).json as { campaign: { id: number } }).campaign.id;
  await expectOk(send(app, admin, { method: 'POST', url: `/api/campaigns/${inst.pausedCampaignId}/pause/` }));
  inst.anonymousCampaignId = (
    (await expectOk(campaign({ anonymous: true, recurring: false }))).json as { campaign: { id: number } }
  ).campaign.id;
  await addContactOffers(db, inst);
  await app.jobs.runDue();
  for (const invitee of invitees) {
    const mail = await db.kysely
      .selectFrom('mail_outbox')
      .select('body')
      .where('to_address', '=', invitee)
      .executeTakeFirstOrThrow();
    const token = mail.body.match(/\/survey\/invite\/([A-Za-z0-9_-]+)\//)?.[1];
    if (!token) throw new Error('world set-up failed: no invitation link was mailed');
    inst.inviteTokens.push(token);
  }
}

/**
 * Single sign-on through a provider on a loopback port nothing listens on: settings to read,
 * change and switch off, and a sign-in that starts and fails at once, never reaching out (the
 * server refuses to call a loopback address outside development). Stored as the settings API
 * stores it, since that API refuses such an issuer.
 */
async function addSingleSignOn(db: Db, inst: InstitutionWorld) {
  await db.kysely
    .insertInto('sso_settings')
    .values({
      institution_id: inst.id,
      issuer: 'http://127.0.0.1:1',
      client_id: `wellspring-${inst.key}`,
      client_secret_sealed: seal(sealingKey(TEST_SECRET, 'oidc client secrets'), `secret-of-${inst.key}`),
      domains: JSON.stringify([inst.domain]),
      student_password_sign_in: 1,
      email_authoritative: 0,
      provider_mfa_counts: 1,
      updated_at: Date.now(),
    })
    .execute();
  // The provider the settings request moves to passed its connection test, as the admin's would.
  await passedConnectionTest(db.kysely, inst.id, {
    issuer: 'https://login.example.edu',
    clientId: 'wellspring',
  });
}

/** Contact offers a request may use: more than the suites send, each a fresh token. */
const CONTACT_OFFERS = 80;

/**
 * An anonymous answer of the institution's anonymous campaign, and offers to be contacted that
 * it gave. Stored directly: answering through the campaign would mail its invitees a second
 * link, and the suites need many more offers than a roster group could give answers.
 */
async function addContactOffers(db: Db, inst: InstitutionWorld) {
  const at = Date.now();
  const submission = await db.kysely
    .insertInto('anonymous_submissions')
    .values({
      institution_id: inst.id,
      campaign_id: inst.anonymousCampaignId,
      template_id: inst.templateId,
      tier: 'urgent',
      likert_mean: 3,
      lexicon_version: null,
      sent_on: dayOf(at),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  for (let index = 0; index < CONTACT_OFFERS; index++) {
    const token = crypto.randomBytes(32).toString('base64url');
    inst.contactTokens.push(token);
    await db.kysely
      .insertInto('contact_offers')
      .values({
        token_hash: contactOfferHash(token),
        institution_id: inst.id,
        submission_id: submission.id,
        tier: 'urgent',
        expires_at: at + DAY,
      })
      .execute();
  }
}

/** A contact offer no request has used yet (the last one, once all are used). */
export function nextContactToken(inst: InstitutionWorld): string {
  return (inst.contactTokens.length > 1 ? inst.contactTokens.pop() : inst.contactTokens.at(-1)) ?? '';
}

/** An invitation token no request has answered with yet (the last one, once all are used). */
export function nextInviteToken(inst: InstitutionWorld): string {
  return (inst.inviteTokens.length > 2 ? inst.inviteTokens.pop() : inst.inviteTokens.at(-1)) ?? '';
}

/**
 * How old a kept world may be before the next test builds a new one: well inside every window
 * that runs from a sign-in (a step-up holds for 5 minutes, an idle session far longer), so a test
 * meets its world as fresh as one it had built itself.
 */
const WORLD_IMAGE_MAX_AGE_MS = 2 * 60_000;

interface KeptWorld {
  world: World;
  image: DatabaseImage;
  builtAt: number;
}

const keptWorlds = new Map<TestDialect, Promise<KeptWorld | null>>();

/**
 * The real app on a database of its own that already holds a world. Building a world (two
 * institutions, a dozen actors, staff enrolling their authenticator apps, answers, cases and
 * campaigns through the API) costs a route's checks several times over, so it is built once,
 * kept as a database image and copied for each test, with a copy of the world that describes it.
 * Where no image can be kept (PostgreSQL without the migrated template) each test builds its own.
 */
export async function appWithWorld(dialect: TestDialect): Promise<{ ctx: TestContext; world: World }> {
  const kept = await currentWorld(dialect);
  if (!kept) {
    const ctx = await createTestApp(dialect);
    return { ctx, world: await createWorld(ctx.app, ctx.db) };
  }
  const ctx = await createTestAppOn(await createTestDatabase(dialect, { from: kept.image }));
  return { ctx, world: structuredClone(kept.world) };
}

function currentWorld(dialect: TestDialect): Promise<KeptWorld | null> {
  const known = keptWorlds.get(dialect);
  const next = (async () => {
    const previous = await known;
    if (known && !previous) return null;
    if (previous && Date.now() - previous.builtAt < WORLD_IMAGE_MAX_AGE_MS) return previous;
    if (previous?.image.dialect === 'postgres') dropInBackground(previous.image.template);
    const builtAt = Date.now();
    const ctx = await createTestApp(dialect);
    const world = await createWorld(ctx.app, ctx.db);
    if (!ctx.keepAsImage) {
      await ctx.close();
      return null;
    }
    return { world, image: await ctx.keepAsImage(), builtAt };
  })();
  keptWorlds.set(dialect, next);
  return next;
}

/**
 * Two institutions with everything the API can touch, and the actors of the matrix. Names,
 * domains and emails carry a fresh tag, so many worlds share one database without colliding.
 */
export async function createWorld(app: FastifyInstance, db: Db): Promise<World> {
  const tag = crypto.randomBytes(4).toString('hex');
  const A = await institutionWorld(app, db, 'A', tag);
  const B = await institutionWorld(app, db, 'B', tag);
  const user = (
    email: string,
    role: 'student' | 'institution_admin' | 'counsellor' | 'viewer' | 'superuser',
    institutionId: number | null,
  ) => makeUser(db.kysely, { email, role, institutionId, name: `${email.split('@')[0]} person` });
  const studentA = await user(`student@${A.domain}`, 'student', A.id);
  const studentB = await user(`student@${B.domain}`, 'student', B.id);
  const staff = async (email: string, role: 'institution_admin' | 'counsellor' | 'viewer', id: number) =>
    withAuthenticatorApp(app, db, await user(email, role, id));
  const adminA = await staff(`admin@${A.domain}`, 'institution_admin', A.id);
  const counsellorA = await staff(`counsellor@${A.domain}`, 'counsellor', A.id);
  const viewerA = await staff(`viewer@${A.domain}`, 'viewer', A.id);
  const adminB = await staff(`admin@${B.domain}`, 'institution_admin', B.id);
  const pendingAdminA = await user(`pending-admin@${A.domain}`, 'institution_admin', A.id);
  const superuser = await user(`root-${tag}@vendor.example`, 'superuser', null);
  const member = await user(`member@${A.domain}`, 'student', A.id);
  const studentSso = await user(`sso-student@${A.domain}`, 'student', A.id);
  const actors: Record<AnyActor, Actor> = {
    anonymous: await actorFor(app, db, 'anonymous', null, null),
    studentA: await actorFor(app, db, 'studentA', 'A', studentA),
    studentB: await actorFor(app, db, 'studentB', 'B', studentB),
    studentSso: await actorFor(app, db, 'studentSso', 'A', studentSso, 'sso'),
    adminA: await actorFor(app, db, 'adminA', 'A', adminA, 'password_and_second_factor'),
    counsellorA: await actorFor(app, db, 'counsellorA', 'A', counsellorA, 'password_and_second_factor'),
    viewerA: await actorFor(app, db, 'viewerA', 'A', viewerA, 'password_and_second_factor'),
    adminB: await actorFor(app, db, 'adminB', 'B', adminB, 'password_and_second_factor'),
    pendingAdminA: await actorFor(app, db, 'pendingAdminA', 'A', pendingAdminA),
    superuser: await actorFor(app, db, 'superuser', null, superuser),
  };
  const world: World = { tag, A, B, actors, member: { email: member.email, password: TEST_PASSWORD } };
  await addCampaigns(app, db, A, actors.adminA);
  await addCampaigns(app, db, B, actors.adminB);
  await addSingleSignOn(db, A);
  await addSingleSignOn(db, B);

  // Private data in both institutions, written through the API as the product writes it.
  for (const inst of [A, B]) {
    const student = actors[inst.key === 'A' ? 'studentA' : 'studentB'];
    const secret = `secret-${inst.key}-${tag}`;
    const visitorSecret = `Visitor ${secret}-v`;
    inst.secrets.push(secret, visitorSecret, `visitor-${tag}@${inst.domain}`, student.email as string);
    const written = `Only my counsellor should read this: ${secret}`;
    await expectOk(
      send(app, student, {
        method: 'POST',
        url: '/api/survey/',
        body: { survey_template_id: inst.templateId, answers: answersFor(inst.questions, written) },
      }),
    );
    await expectOk(
      send(app, actors.anonymous, {
        method: 'POST',
        url: `/api/survey/link/${inst.hashLink}/`,
        body: {
          student_name: visitorSecret,
          school_email: `visitor-${tag}@${inst.domain}`,
          answers: answersFor(inst.questions, `Visitor says ${secret}`),
        },
      }),
    );
    // Flagged answers open cases: the first is what case work and student history aim at; the
    // others are resolved, one per actor allowed to (a resolved case cannot be resolved again),
    // or come resolved already, for each of them to reopen.
    for (const n of [0, 1, 2, 3, 4]) {
      const flaggedEmail = `flagged-${n}-${tag}@${inst.domain}`;
      inst.secrets.push(`Flagged ${secret}-f${n}`, flaggedEmail);
      await expectOk(
        send(app, actors.anonymous, {
          method: 'POST',
          url: `/api/survey/link/${inst.hashLink}/`,
          body: {
            student_name: `Flagged ${secret}-f${n}`,
            school_email: flaggedEmail,
            answers: answersFor(inst.questions, 'I want to kill myself'),
          },
        }),
      );
    }
    const [opened, ...spares] = await db.kysely
      .selectFrom('cases')
      .select(['id', 'respondent_id'])
      .where('institution_id', '=', inst.id)
      .orderBy('id')
      .execute();
    if (!opened) throw new Error('a flagged answer should have opened a case');
    inst.caseId = opened.id;
    inst.studentId = opened.respondent_id;
    inst.spareCaseIds = spares.map((spare) => spare.id);
    for (const resolved of inst.spareCaseIds.slice(2)) {
      await expectOk(
        send(app, actors[inst.key === 'A' ? 'adminA' : 'adminB'], {
          method: 'POST',
          url: `/api/cases/${resolved}/resolve/`,
          body: { outcome: 'no_concern_after_contact' },
        }),
      );
    }
    await expectOk(
      send(app, student, {
        method: 'POST',
        url: '/api/autosave/',
        body: {
          template_id: inst.templateId,
          answers: { [String(inst.questions[0]?.id)]: '2' },
          student_name: written,
        },
      }),
    );
  }
  return world;
}

async function expectOk(pending: Promise<Res>) {
  const response = await pending;
  if (response.status >= 300) throw new Error(`world set-up failed: ${response.status} ${response.text}`);
  return response;
}

// ---------------------------------------------------------------------------------------------
// Database snapshots.

// limit_counters and stream_slots are left out: counting every request, refused ones included,
// is what a rate limit does (a failed login counts against the account), and a stream of an
// earlier request may free its slot at any moment.
const TABLES = [
  'institutions',
  'institution_domains',
  'users',
  'sessions',
  'survey_templates',
  'active_templates',
  'questions',
  'respondents',
  'submissions',
  'answers',
  'drafts',
  'contact_requests',
  'dashboard_totals',
  'dashboard_months',
  'dashboard_students',
  'dashboard_student_months',
  'dashboard_latest_days',
  'staff_invitations',
  'cases',
  'case_events',
  'case_mails',
  'roster_students',
  'campaigns',
  'campaign_invitations',
  'totp_credentials',
  'recovery_codes',
  'passkeys',
  'passkey_challenges',
  'sso_settings',
  'sso_connection_tests',
  'sso_attempts',
  'sso_identities',
  'sso_link_grants',
  'password_resets',
  'legal_holds',
  'records_requests',
] as const satisfies readonly (keyof Database)[];

export type TableName = (typeof TABLES)[number];
export type Snapshot = Record<string, string[]>;

/**
 * Every row of every table, as sorted JSON lines. `sessions.last_seen_at` is left out: reading
 * with a session may refresh it, which is the one write a refused request is allowed. The
 * suites take thousands of these, so the database writes the lines itself, every table in one
 * statement, rather than handing each row to JavaScript to be written out.
 */
export async function snapshot(db: Db, ignore: readonly TableName[] = []): Promise<Snapshot> {
  const tables = TABLES.filter((table) => !ignore.includes(table));
  const statement = await snapshotStatement(db, tables);
  const { rows } = await sql<{ t: string; lines: string | null }>`${sql.raw(statement)}`.execute(db.kysely);
  const result: Snapshot = {};
  for (const row of rows) result[row.t] = row.lines ? row.lines.split('\n') : [];
  return result;
}

const snapshotStatements = new Map<string, string>();

/** One statement that lists the rows of `tables`, each as a JSON line, sorted, per table. */
async function snapshotStatement(db: Db, tables: readonly TableName[]): Promise<string> {
  const key = `${db.dialect}:${tables.join(',')}`;
  const known = snapshotStatements.get(key);
  if (known) return known;
  const parts: string[] = [];
  for (const table of tables) {
    if (db.dialect === 'postgres') {
      const line = table === 'sessions' ? "(to_jsonb(x) - 'last_seen_at')::text" : 'to_jsonb(x)::text';
      parts.push(
        `select '${table}' as t, string_agg(${line}, E'\\n' order by ${line}) as lines from "${table}" x`,
      );
    } else {
      const { rows } = await sql<{ name: string }>`select name from pragma_table_info(${table})`.execute(
        db.kysely,
      );
      const fields = rows
        .filter((column) => !(table === 'sessions' && column.name === 'last_seen_at'))
        .map((column) => {
          const name = `"${column.name}"`;
          // JSON has no bytes: a blob is written as hex.
          return `'${column.name}', iif(typeof(${name}) = 'blob', hex(${name}), ${name})`;
        });
      const line = `json_object(${fields.join(', ')})`;
      parts.push(
        `select '${table}' as t, (select group_concat(j, char(10) order by j) from (select ${line} as j from "${table}")) as lines`,
      );
    }
  }
  const statement = parts.join(' union all ');
  snapshotStatements.set(key, statement);
  return statement;
}

/**
 * Everything that belongs to one institution, for "B is untouched" checks. Sessions are left
 * out: logging in and out changes them by design, whoever the user is.
 */
export async function institutionSlice(db: Db, institutionId: number): Promise<Snapshot> {
  const k = db.kysely;
  const json = (rows: unknown[]) => rows.map((row) => JSON.stringify(row)).sort();
  const users = await k.selectFrom('users').selectAll().where('institution_id', '=', institutionId).execute();
  const userIds = users.map((user) => user.id);
  const templates = await k
    .selectFrom('survey_templates')
    .selectAll()
    .where('institution_id', '=', institutionId)
    .execute();
  const templateIds = templates.map((template) => template.id);
  const submissions = await k
    .selectFrom('submissions')
    .selectAll()
    .where('institution_id', '=', institutionId)
    .execute();
  const submissionIds = submissions.map((submission) => submission.id);
  const none = [-1];
  const students = await k
    .selectFrom('dashboard_students')
    .selectAll()
    .where('institution_id', '=', institutionId)
    .execute();
  return {
    institutions: json(
      await k.selectFrom('institutions').selectAll().where('id', '=', institutionId).execute(),
    ),
    institution_domains: json(
      await k
        .selectFrom('institution_domains')
        .selectAll()
        .where('institution_id', '=', institutionId)
        .execute(),
    ),
    users: json(users),
    password_resets: json(
      await k
        .selectFrom('password_resets')
        .selectAll()
        .where('user_id', 'in', userIds.length ? userIds : none)
        .execute(),
    ),
    survey_templates: json(templates),
    active_templates: json(
      await k
        .selectFrom('active_templates')
        .selectAll()
        .where('institution_id', '=', institutionId)
        .execute(),
    ),
    questions: json(
      await k
        .selectFrom('questions')
        .selectAll()
        .where('template_id', 'in', templateIds.length ? templateIds : none)
        .execute(),
    ),
    question_translations: json(
      await k
        .selectFrom('question_translations')
        .innerJoin('questions', 'questions.id', 'question_translations.question_id')
        .selectAll('question_translations')
        .where('questions.template_id', 'in', templateIds.length ? templateIds : none)
        .execute(),
    ),
    respondents: json(
      await k.selectFrom('respondents').selectAll().where('institution_id', '=', institutionId).execute(),
    ),
    submissions: json(submissions),
    answers: json(
      await k
        .selectFrom('answers')
        .selectAll()
        .where('submission_id', 'in', submissionIds.length ? submissionIds : none)
        .execute(),
    ),
    drafts: json(
      await k
        .selectFrom('drafts')
        .selectAll()
        .where((eb) =>
          eb.or([
            eb('user_id', 'in', userIds.length ? userIds : none),
            eb('template_id', 'in', templateIds.length ? templateIds : none),
          ]),
        )
        .execute(),
    ),
    dashboard_totals: json(
      await k
        .selectFrom('dashboard_totals')
        .selectAll()
        .where('institution_id', '=', institutionId)
        .execute(),
    ),
    dashboard_months: json(
      await k
        .selectFrom('dashboard_months')
        .selectAll()
        .where('institution_id', '=', institutionId)
        .execute(),
    ),
    dashboard_students: json(students),
    dashboard_student_months: json(
      await k
        .selectFrom('dashboard_student_months')
        .selectAll()
        .where('student_id', 'in', students.length ? students.map((student) => student.id) : none)
        .execute(),
    ),
    dashboard_latest_days: json(
      await k
        .selectFrom('dashboard_latest_days')
        .selectAll()
        .where('institution_id', '=', institutionId)
        .execute(),
    ),
    staff_invitations: json(
      await k
        .selectFrom('staff_invitations')
        .selectAll()
        .where('institution_id', '=', institutionId)
        .execute(),
    ),
    roster_students: json(
      await k.selectFrom('roster_students').selectAll().where('institution_id', '=', institutionId).execute(),
    ),
    campaigns: json(
      await k.selectFrom('campaigns').selectAll().where('institution_id', '=', institutionId).execute(),
    ),
    campaign_invitations: json(
      await k
        .selectFrom('campaign_invitations')
        .innerJoin('campaigns', 'campaigns.id', 'campaign_invitations.campaign_id')
        .selectAll('campaign_invitations')
        .where('campaigns.institution_id', '=', institutionId)
        .execute(),
    ),
    sso_settings: json(
      await k.selectFrom('sso_settings').selectAll().where('institution_id', '=', institutionId).execute(),
    ),
    sso_connection_tests: json(
      await k
        .selectFrom('sso_connection_tests')
        .selectAll()
        .where('institution_id', '=', institutionId)
        .execute(),
    ),
    sso_attempts: json(
      await k.selectFrom('sso_attempts').selectAll().where('institution_id', '=', institutionId).execute(),
    ),
  };
}

/** Rows in a table, for quick "nothing was added" checks. */
export async function rowCount(db: Db, table: TableName): Promise<number> {
  const { rows } = await sql<{
    count: number | string;
  }>`select count(*) as count from ${sql.table(table)}`.execute(db.kysely);
  return Number(rows[0]?.count ?? 0);
}

/** The actor's institution, or null. */
export function institutionOf(world: World, actor: AnyActor): InstitutionWorld | null {
  const key = world.actors[actor].institution;
  return key ? world[key] : null;
}

/** Secrets of institutions other than the actor's: none of them may appear in its responses. */
export function foreignSecrets(world: World, actor: AnyActor): string[] {
  const own = world.actors[actor].institution;
  return [world.A, world.B].filter((inst) => inst.key !== own).flatMap((inst) => inst.secrets);
}

/**
 * `read`, read again only when the database may have changed since its last reading, as a mark
 * that moves with every write says:
 * - SQLite: the app and the test share one connection, whose total_changes() counts every row any
 *   of its statements changed (rolled back or not);
 * - PostgreSQL: the write-ahead log's insert position, which every change to a table moves (and
 *   other databases' work too, which only costs a needless reading).
 * While the mark stands still no row changed, and the last reading still holds. Nearly every
 * hostile request is refused without a write, so this saves most of the whole-database
 * comparisons of the suites that make them.
 */
export function readWhenChanged<T>(db: Db, read: () => Promise<T>): () => Promise<T> {
  let last: { mark: string; value: T } | undefined;
  return async () => {
    const mark = await writeMark(db);
    if (last?.mark === mark) return last.value;
    const value = await read();
    last = { mark, value };
    return value;
  };
}

async function writeMark(db: Db): Promise<string> {
  const { rows } =
    db.dialect === 'sqlite'
      ? await sql<{ mark: string }>`select cast(total_changes() as text) as mark`.execute(db.kysely)
      : await sql<{ mark: string }>`select pg_current_wal_insert_lsn()::text as mark`.execute(db.kysely);
  return String(rows[0]?.mark);
}

/**
 * A cheap fingerprint of every table, for comparisons repeated thousands of times: one query
 * hashing each table's rows on PostgreSQL, the rows themselves on in-process SQLite.
 */
export async function fingerprint(db: Db, ignore: readonly TableName[] = []): Promise<Snapshot> {
  const tables = TABLES.filter((table) => !ignore.includes(table));
  if (db.dialect === 'sqlite') return snapshot(db, ignore);
  const parts = tables.map((table) => {
    const row = table === 'sessions' ? '(x.id_hash, x.user_id, x.created_at)::text' : 'x::text';
    return `select '${table}' as t, count(*) as n, md5(coalesce(string_agg(${row}, '|' order by ${row}), '')) as h from ${table} x`;
  });
  const { rows } = await sql<{
    t: string;
    n: number | string;
    h: string;
  }>`${sql.raw(parts.join(' union all '))}`.execute(db.kysely);
  return Object.fromEntries(rows.map((row) => [row.t, [`${row.n} rows`, row.h]]));
}
