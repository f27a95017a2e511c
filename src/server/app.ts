import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Writable } from 'node:stream';
import cookie from '@fastify/cookie';
import csrfProtection from '@fastify/csrf-protection';
import rateLimit from '@fastify/rate-limit';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyInstance, type RouteOptions } from 'fastify';
import { jsonSchemaTransform, serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { Config } from './config';
import type { Db } from './db';
import { DatabaseClock } from './db/clock';
import { CHECKPOINT_INTERVAL_MS, walCheckpointsOf } from './db/wal-checkpoints';
import { accountRoutes } from './features/account';
import { auditRoutes } from './features/audit';
import { authRoutes, completePendingRegistration, forgetDeadSession } from './features/auth';
import { campaignRoutes } from './features/campaigns';
import { appCaseOpener, type CaseOpener, caseRoutes, verifyCasesOfProven } from './features/cases';
import { contactRoutes } from './features/contact';
import { dashboardRoutes, rollUpProvenSubmissions, rollUpStoredSubmission } from './features/dashboard';
import { draftRoutes } from './features/drafts';
import { erasureRoutes } from './features/erasure';
import { healthRoutes, Readiness } from './features/health';
import { institutionRoutes } from './features/institutions';
import { legalHoldRoutes } from './features/legal-holds';
import { passkeyRoutes } from './features/passkeys';
import { passwordResetRoutes } from './features/password-reset';
import { recordsRequestRoutes } from './features/records-requests';
import { retentionRoutes, startRetention } from './features/retention';
import { rosterRoutes } from './features/roster';
import { secondFactorRoutes } from './features/second-factor';
import { isBuiltSubresource, shellRoutes } from './features/shell';
import { passwordRefusalForAddress, ssoRoutes } from './features/sso';
import { staffRoutes } from './features/staff';
import { studentRecordRoutes } from './features/student-records';
import { promoteOnProof, SubmissionEvents, surveyRoutes } from './features/surveys';
import { templateRoutes } from './features/templates';
import { unconfirmedAddressRoutes } from './features/unconfirmed-address';
import type { AddressProven, CodeContext } from './features/verify';
import { verifyRoutes } from './features/verify';
import {
  AppError,
  handleClientError,
  handleError,
  sendError,
  TOO_MANY_REQUESTS_MESSAGE,
  unknownEndpoint,
} from './lib/errors';
import { createJobWorker } from './lib/jobs';
import { sharedRateLimitStore } from './lib/limits';
import { loggerOptions } from './lib/logging';
import { createMailTransport, type MailTransport } from './lib/mail/transport';
import { type MailWorker, startMailWorker } from './lib/mail/worker';
import { startPoller } from './lib/poller';
import { proxyTrust } from './lib/proxy-trust';
import { installRequestGuard } from './lib/request-guard';
import { sealingKey } from './lib/sealed';
import { securityHeaderSetter } from './lib/security-headers';
import { refuseDuringShutdown } from './lib/shutdown';
import { installTextGuard } from './lib/text-guard';
import { serverTimeouts } from './lib/timeouts';
import { TransactionEvent } from './lib/transaction-event';
import { announceChangeAfterCommit } from './live';

export interface AppOptions {
  db: Db;
  config: Config;
  /** Server secret: signs CSRF tokens and cookies. */
  secret: string;
  /** Folder of the built web app; defaults to dist/web. */
  webRoot?: string;
  /** Where log lines go; standard output unless a test reads them. */
  logStream?: Writable;
  /** Mail delivery: the transport (SMTP or the log, from the config) and whether to run the outbox worker. */
  mail?: { transport?: MailTransport; worker?: boolean };
  /** Whether the job worker polls on its own; without it a test runs due jobs with `app.jobs.runDue`. */
  jobs?: { poll?: boolean };
  /** Told of every route as it is registered, features included (tests list the API with it). */
  onRoute?: (route: RouteOptions) => void;
  /**
   * Whose clock leases and due times follow: the database's (every instance agrees on it), or
   * this machine's, which an in-process test moves with fake timers.
   */
  leaseClock?: 'database' | 'machine';
}

/** How often each instance looks for mail queued by the others. */
const MAIL_POLL_MS = 5_000;
/** How often each instance looks for jobs that fell due. */
const JOB_POLL_MS = 5_000;

const DEFAULT_WEB_ROOT = path.resolve(import.meta.dirname, '../../dist/web');

/**
 * Who follows a submission, in this order, inside the transaction that stores it (so each is kept
 * with the submission or not at all): the dashboard's rollups count it once its address is
 * proven, cases file it when it is flagged, and open dashboards refresh once it commits. The
 * same followers, in the same order, when waiting submissions are proven later. Without a case
 * opener (a test that builds dashboards alone) flagged submissions open no case.
 */
export function submissionEvents(cases?: CaseOpener): SubmissionEvents {
  const events = new SubmissionEvents();
  events.stored.subscribe(rollUpStoredSubmission);
  if (cases) events.stored.subscribe(cases.fileStored);
  events.stored.subscribe((_trx, hooks, stored) => announceChangeAfterCommit(hooks, stored.institutionId));
  events.proven.subscribe(rollUpProvenSubmissions);
  events.proven.subscribe(verifyCasesOfProven);
  events.proven.subscribe((_trx, hooks, proven) => {
    for (const submission of proven.submissions) announceChangeAfterCommit(hooks, submission.institutionId);
  });
  return events;
}

export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const { db, config, secret } = options;
  const setSecurityHeaders = securityHeaderSetter(config.web, isBuiltSubresource);
  const app = Fastify({
    logger: loggerOptions(config.logLevel, options.logStream),
    trustProxy: proxyTrust(config.trustProxy),
    bodyLimit: config.limits.bodyBytes,
    ...serverTimeouts(config.limits.timeouts),
    // A body or headers that arrive too slowly are refused by Node itself: answer in our shape too.
    clientErrorHandler: handleClientError,
    // Hash links and ids fit easily; anything longer is hostile.
    routerOptions: { maxParamLength: 200 },
    // Requests during a graceful shutdown get our answer instead (refuseDuringShutdown).
    return503OnClosing: false,
    // The router's own refusals (a malformed percent-encoding, an over-long parameter) would
    // otherwise answer in Fastify's format, echoing the URL and without the security headers.
    frameworkErrors: (error, request, reply) => {
      setSecurityHeaders(request.raw, reply.raw);
      reply.header('Cache-Control', 'no-store');
      return handleError(error, request, reply);
    },
  });
  if (options.onRoute) app.addHook('onRoute', options.onRoute);
  // The API speaks JSON only; Fastify's default text/plain parser would let plain strings reach handlers.
  app.removeContentTypeParser('text/plain');
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.decorate('db', db);
  app.decorate('config', config);
  const transport =
    options.mail?.transport ??
    createMailTransport(config.mail, (fields, message) => app.log.info(fields, message));
  const databaseClock =
    options.leaseClock === 'machine'
      ? undefined
      : new DatabaseClock(db.kysely, db.dialect, (offsetMs) =>
          app.log.warn(
            { offsetMs },
            "this machine's clock differs from the database's; leases and due times follow the database's",
          ),
        );
  const mail: MailWorker =
    options.mail?.worker === false
      ? { wake: () => undefined, stop: async () => transport.close() }
      : startMailWorker({
          db: db.kysely,
          transport,
          ...(databaseClock ? { databaseClock } : {}),
          pollMs: MAIL_POLL_MS,
          // A database outage is logged once by the health record, not at every poll.
          onError: (error) => {
            if (!db.health.failed(error))
              app.log.warn({ err: error }, 'mail delivery failed; it will be retried');
          },
        });
  app.decorate('mail', mail);
  app.addHook('onClose', () => mail.stop());
  const jobs = createJobWorker({
    db: db.kysely,
    ...(databaseClock ? { databaseClock } : {}),
    pollMs: options.jobs?.poll === false ? null : JOB_POLL_MS,
    onError: (error) => {
      if (!db.health.failed(error)) app.log.warn({ err: error }, 'a job failed; it will be retried');
    },
    afterRuns: () => mail.wake(),
  });
  app.decorate('jobs', jobs);
  // Features add their kinds of job as they register; polling starts once all have.
  app.addHook('onReady', async () => jobs.start());
  app.addHook('onClose', () => jobs.stop());
  const retention = startRetention({
    db: db.kysely,
    retention: config.retention,
    ...(databaseClock ? { databaseClock } : {}),
    onError: (error) => {
      if (!db.health.failed(error))
        app.log.warn({ err: error }, 'the retention pass failed; it runs again later');
    },
  });
  app.addHook('onClose', () => retention.stop());
  app.setErrorHandler(handleError);
  // One line when the database goes and one when it is back, both seen at the usual warn level.
  const stopWatchingHealth = db.health.observe((event) => {
    if (event.state === 'down')
      app.log.error({ reason: event.reason }, 'database unavailable; answering 503 until it is back');
    else app.log.warn({ downForMs: event.downForMs }, 'database available again');
  });
  app.addHook('onClose', async () => stopWatchingHealth());
  const walCheckpoints = walCheckpointsOf(db, config.sqliteWalLimitBytes, {
    onFailing: (error, walBytes) =>
      app.log.warn(
        { err: error, walBytes },
        'SQLite checkpoints are failing: the write-ahead log grows until the database file can be written',
      ),
    onRecovered: (walBytes) => app.log.warn({ walBytes }, 'SQLite checkpoints work again'),
  });
  if (walCheckpoints) {
    const checkpoints = startPoller({
      work: () => walCheckpoints.run(),
      pollMs: CHECKPOINT_INTERVAL_MS,
      onError: () => undefined,
    });
    app.addHook('onClose', () => checkpoints.stop());
  }
  const readiness = new Readiness(db, walCheckpoints);
  app.setNotFoundHandler((request, reply) => {
    const notFound = unknownEndpoint(request.method, request.url);
    sendError(reply, notFound.code, notFound.message);
  });

  // Helmet's headers, from one middleware built at start (its Fastify wrapper builds one per request).
  app.addHook('onRequest', (request, reply, done) => {
    setSecurityHeaders(request.raw, reply.raw);
    done();
  });
  refuseDuringShutdown(app);
  app.addHook('onSend', async (request, reply) => {
    if (request.protocol === 'https')
      reply.header('Strict-Transport-Security', 'max-age=31536000; includeSubDomains');
    // API answers carry wellness data and identities: no browser cache (a shared lab computer's
    // disk) or proxy keeps a copy, unless a route chose its own caching (static files).
    const isApi = [request.routeOptions.url, request.url].some((path) => path?.startsWith('/api/'));
    if (isApi && !reply.hasHeader('cache-control')) reply.header('Cache-Control', 'no-store');
    // Answered before its body has all arrived (a request refused at once): the rest will not be
    // read, so the connection ends with this answer. Kept open, it would get a second answer
    // nobody asked for, the 408 of Node's request timeout.
    if (!request.raw.complete) reply.header('Connection', 'close');
  });
  await app.register(cookie, { secret });
  await app.register(csrfProtection, {
    sessionPlugin: '@fastify/cookie',
    cookieOpts: { path: '/', sameSite: 'lax', httpOnly: true, signed: true },
    csrfOpts: { hmacKey: secret },
    getToken: (request) => request.headers['x-csrftoken'] as string | undefined,
    // Binds every token to the session it was issued for; anonymous visitors share the anonymous binding.
    getUserInfo: (request) => request.session?.idHash ?? 'anonymous',
  });
  await app.register(rateLimit, {
    global: false,
    // Counts in the database, so a limit holds across instances (see lib/limits.ts).
    store: sharedRateLimitStore(db.kysely),
    errorResponseBuilder: () => new AppError('TOO_MANY_REQUESTS', TOO_MANY_REQUESTS_MESSAGE),
  });
  await app.register(swagger, {
    openapi: {
      info: { title: `${config.web.brandName} Health API`, version: '1.0.0' },
      components: {
        securitySchemes: {
          session: { type: 'apiKey', in: 'cookie', name: 'sessionid' },
          csrf: { type: 'apiKey', in: 'header', name: 'X-CSRFToken' },
        },
      },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs', staticCSP: true });

  installRequestGuard(app, { forgetSession: forgetDeadSession });
  installTextGuard(app);

  await app.register(healthRoutes, { readiness });
  const codes: CodeContext = {
    // Its own key, derived from the server secret: code hashes never share a key with cookies.
    codeKey: crypto.createHmac('sha256', secret).update('verification codes').digest(),
    brandName: config.web.brandName,
  };
  const submissions = submissionEvents(appCaseOpener(app));
  // A proven address: the browser's waiting answers count (surveys), then a registration waiting
  // for the code becomes the account (auth).
  const addressProven = new TransactionEvent<AddressProven>().subscribe(promoteOnProof(submissions));
  await app.register(authRoutes, { codes, passwordRefusal: passwordRefusalForAddress });
  await app.register(verifyRoutes, {
    codes,
    followUps: { addressProven, completeRegistration: completePendingRegistration },
  });
  await app.register(passwordResetRoutes);
  await app.register(unconfirmedAddressRoutes, { codes });
  const recoveryKey = crypto.createHmac('sha256', secret).update('recovery codes').digest();
  await app.register(secondFactorRoutes, {
    context: {
      sealKey: sealingKey(secret, 'authenticator apps'),
      recoveryKey,
      issuer: `${config.web.brandName} Health`,
    },
  });
  await app.register(passkeyRoutes, { recoveryKey });
  await app.register(accountRoutes);
  await app.register(studentRecordRoutes);
  await app.register(contactRoutes);
  await app.register(dashboardRoutes);
  await app.register(institutionRoutes);
  await app.register(retentionRoutes);
  await app.register(legalHoldRoutes);
  await app.register(recordsRequestRoutes);
  await app.register(erasureRoutes, {
    // Its own key, derived from the server secret: an erased student's identifier shares no key.
    erasureKey: crypto.createHmac('sha256', secret).update('erased students').digest(),
  });
  await app.register(ssoRoutes, { sealKey: sealingKey(secret, 'oidc client secrets') });
  await app.register(caseRoutes);
  await app.register(templateRoutes);
  await app.register(surveyRoutes, { events: submissions });
  await app.register(draftRoutes);
  await app.register(staffRoutes);
  await app.register(auditRoutes);
  await app.register(rosterRoutes);
  await app.register(campaignRoutes, {
    invitations: {
      // Its own key, derived from the server secret: invitation links share no key with cookies.
      inviteKey: crypto.createHmac('sha256', secret).update('invitation links').digest(),
      brandName: config.web.brandName,
      linkBase: config.mail.linkBase,
    },
    events: submissions,
  });
  await app.register(shellRoutes, { webRoot: options.webRoot ?? DEFAULT_WEB_ROOT, exists: fs.existsSync });
  return app;
}
