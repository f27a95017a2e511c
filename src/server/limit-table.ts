/**
 * Every limit the server holds, with its value, its window and what it counts: the one place
 * each number lives. Routes and services read their limit from here, or from `config.limits`
 * where an operator may change it (config.ts builds its defaults from this table and reads the
 * environment variable named here). lib/limits.ts does the counting; the README's Limits table is
 * written from LIMIT_ROWS below, and limit-table.unit.test.ts fails when the two differ.
 */
import { DAY, HOUR, MINUTE, SECOND } from './lib/time';

export interface Limit {
  /** How many are allowed (hits, rows, slots), or how large (bytes) or how long (ms): see `unit`. */
  max: number;
  /** The window the hits are counted in; none for a size or a cap that holds at every moment. */
  windowMs?: number;
  unit?: 'bytes' | 'ms';
  /** Environment variable that replaces the value (config.ts). */
  env?: string;
  /** What is limited, and why the number, in a line. */
  about: string;
}

const LOGIN_WINDOW = 15 * MINUTE;

export const LIMITS = {
  loginPerClient: {
    max: 20,
    windowMs: MINUTE,
    env: 'LOGIN_RATE_LIMIT_PER_MINUTE',
    about: 'each sign-in step (password, second factor, passkey) per client address',
  },
  loginFailuresPerAccount: {
    max: 5,
    windowMs: LOGIN_WINDOW,
    about: 'failed logins per account from one client, then that client waits out the window',
  },
  loginAttemptsFromNewClients: {
    max: 20,
    windowMs: LOGIN_WINDOW,
    about: 'login attempts per account from all browsers new to it together, then each waits its turn',
  },
  newClientFirstDelay: { max: SECOND, unit: 'ms', about: 'the first wait for a turn past that count' },
  newClientDelayCap: {
    max: MINUTE,
    unit: 'ms',
    about: 'the longest wait for a turn (it doubles up to this)',
  },
  secondFactorFailures: {
    max: 5,
    windowMs: LOGIN_WINDOW,
    about: 'wrong second-factor codes per account, then the account waits',
  },
  stepUp: {
    max: 5 * MINUTE,
    unit: 'ms',
    about: 'how recently a second factor must be proven to change how an account signs in',
  },
  passwordChangeFailures: {
    max: 5,
    windowMs: LOGIN_WINDOW,
    about: 'wrong current passwords per account when changing a password, then the account waits',
  },
  registrationsPerClient: {
    max: 20,
    windowMs: HOUR,
    about: 'accounts one client address may register (a class registering together fits)',
  },
  verificationsPerClient: {
    max: 20,
    windowMs: MINUTE,
    about: 'code requests and code checks one client address may make, each',
  },
  codesPerAddressPerClient: {
    max: 3,
    windowMs: HOUR,
    about: 'codes mailed to an address at the asking of one client address',
  },
  codesPerAddress: { max: 20, windowMs: HOUR, about: 'codes mailed to an address, all clients together' },
  codesPerAddressPerBrowser: {
    max: 3,
    windowMs: HOUR,
    about: 'fresh codes for a browser holding a live code for the address, whatever the other two say',
  },
  accountExistsMails: {
    max: 3,
    windowMs: DAY,
    about: '"this address already has an account" mails an address receives',
  },
  resetsPerAddress: { max: 3, windowMs: HOUR, about: '"forgot password" mails an address receives' },
  resetsPerClient: {
    max: 20,
    windowMs: HOUR,
    about: '"forgot password" requests one client address may make',
  },
  resetChoicesPerClient: {
    max: 20,
    windowMs: HOUR,
    about: 'new passwords chosen with a link per client address (each try hashes a password)',
  },
  invitationAcceptsPerClient: {
    max: 20,
    windowMs: HOUR,
    about: 'staff invitations accepted per client address (each try hashes a password)',
  },
  codeResendsPerClient: {
    max: 10,
    windowMs: MINUTE,
    about: '"send a new code" requests for a waiting registration per client address',
  },
  linkSubmissionsPerClient: {
    max: 30,
    windowMs: MINUTE,
    about: 'answers sent through shared and personal survey links per client address',
  },
  unprovenAlertsPerClient: {
    max: 2,
    windowMs: HOUR,
    env: 'UNPROVEN_ALERTS_PER_CLIENT_PER_HOUR',
    about: 'urgent alerts mailed at once for unproven answers, per client address',
  },
  unprovenAlertsPerInstitution: {
    max: 5,
    windowMs: HOUR,
    env: 'UNPROVEN_ALERTS_PER_INSTITUTION_PER_HOUR',
    about: 'urgent alerts mailed at once for unproven answers, per institution',
  },
  unprovenDigest: {
    max: 15 * MINUTE,
    unit: 'ms',
    about: 'how long unproven urgent cases past those limits gather before one digest mail',
  },
  contactPerClient: { max: 5, windowMs: MINUTE, about: 'contact form posts per client address' },
  contactBodyBytes: { max: 16 * 1024, unit: 'bytes', about: 'largest contact form post' },
  csvExportsPerClient: {
    max: 10,
    windowMs: MINUTE,
    about: 'CSV exports (submissions, cases, audit log) per client address, all exports alike',
  },
  rosterImportsPerInstitution: {
    max: 5,
    windowMs: 10 * MINUTE,
    about: 'roster imports per institution, refused files included (each reads and writes every row)',
  },
  rosterUploadsPerClient: { max: 30, windowMs: MINUTE, about: 'roster uploads per client address' },
  rosterFileBytes: {
    max: 8 * 1024 * 1024,
    unit: 'bytes',
    about: "largest roster file; 100,000 rows of a registrar's export fit well inside",
  },
  rosterRows: {
    max: 100_000,
    about: "students one roster file may list: a large university's whole student body",
  },
  dashboardStreamsPerUser: {
    max: 5,
    about: 'live dashboards one user may hold open at once, across all instances',
  },
  ssoDiscoveriesPerClient: {
    max: 30,
    windowMs: MINUTE,
    about: 'single sign-on look-ups of an address per client address (a wall for listing domains)',
  },
  ssoSignInsPerClient: {
    max: 20,
    windowMs: MINUTE,
    about: 'single sign-on starts and callbacks per client address (each calls the provider)',
  },
  ssoProviderAnswerBytes: {
    max: 1024 * 1024,
    unit: 'bytes',
    about: 'largest answer read from a sign-on provider (its documents and tokens are a few KiB)',
  },
  bodyBytes: { max: 256 * 1024, unit: 'bytes', about: 'largest request body' },
  draftBytes: { max: 64 * 1024, unit: 'bytes', about: 'largest saved survey draft (its JSON)' },
  requestTime: {
    max: 30 * SECOND,
    unit: 'ms',
    about: 'a whole request, headers and body, must arrive within this',
  },
  headersTime: { max: 10 * SECOND, unit: 'ms', about: 'the headers must arrive within this' },
  idleConnection: {
    max: 60 * SECOND,
    unit: 'ms',
    about: 'a connection with no traffic either way is closed',
  },
  keepAlive: {
    max: 5 * SECOND,
    unit: 'ms',
    about: 'an idle kept-alive connection waits this long for its next request',
  },
} as const satisfies Record<string, Limit>;

export type LimitName = keyof typeof LIMITS;

/** A route's per-client-address limit, as `config: { rateLimit }` takes it (lib/limits.ts). */
export function routeLimit(rule: { max: number; windowMs: number }) {
  return { max: rule.max, timeWindow: rule.windowMs };
}

// --- The README's Limits table, written from the values above -----------------------------------

const WINDOW_WORDS = new Map<number, string>([
  [MINUTE, 'a minute'],
  [HOUR, 'an hour'],
  [DAY, 'a day'],
]);

/** "20 a minute", "5 per 15 minutes". */
function rate(limit: { max: number; windowMs: number }): string {
  const words = WINDOW_WORDS.get(limit.windowMs);
  if (words) return `${limit.max} ${words}`;
  return `${limit.max} per ${duration(limit.windowMs)}`;
}

/** "15 minutes", "60 s". */
function duration(ms: number): string {
  if (ms % MINUTE === 0 && ms >= 2 * MINUTE) return `${ms / MINUTE} minutes`;
  return `${ms / SECOND} s`;
}

function bytes(value: number): string {
  if (value % (1024 * 1024) === 0) return `${value / (1024 * 1024)} MiB`;
  return `${value / 1024} KiB`;
}

const L = LIMITS;

export interface LimitRow {
  what: string;
  limit: string;
  per: string;
  /** The limits the row tells of; every limit is in some row. */
  covers: LimitName[];
}

export const LIMIT_ROWS: LimitRow[] = [
  {
    what: 'login attempts (each step counted apart: password, second factor, passkey)',
    limit: `\`${L.loginPerClient.env}\` (${L.loginPerClient.max}) ${WINDOW_WORDS.get(L.loginPerClient.windowMs)}`,
    per: 'client address',
    covers: ['loginPerClient'],
  },
  {
    what: 'failed logins',
    limit: `${rate(L.loginFailuresPerAccount)}, then that client waits out the window; a stranger's failures never lock the owner's usual browser (it carries a signed \`known_device\` cookie from its last sign-in)`,
    per: 'account and client (that cookie, else the client address)',
    covers: ['loginFailuresPerAccount'],
  },
  {
    what: 'login attempts from browsers new to the account',
    limit: `${rate(L.loginAttemptsFromNewClients)}, all such clients together (guessing spread over many addresses); past that each further attempt waits for the account's turn, ${duration(L.newClientFirstDelay.max)} after the last, doubling each time up to ${duration(L.newClientDelayCap.max)} (429 with \`Retry-After\`). Never a lock: the owner with the right password gets in at most ${duration(L.newClientDelayCap.max)} after guessing stops (while it goes on, a new browser shares the account's turns with the guesser: one attempt a minute at most for all), and their usual browser never waits`,
    per: 'account',
    covers: ['loginAttemptsFromNewClients', 'newClientFirstDelay', 'newClientDelayCap'],
  },
  {
    what: 'wrong second-factor codes (app or recovery), step-ups included',
    limit: `${rate(L.secondFactorFailures)}, then the account waits out the window`,
    per: 'account',
    covers: ['secondFactorFailures'],
  },
  {
    what: 'a fresh second factor for sign-in changes (step-up)',
    limit: `proven within the last ${duration(L.stepUp.max)}`,
    per: 'session',
    covers: ['stepUp'],
  },
  {
    what: 'wrong current passwords when changing a password (`POST /api/account/password/`)',
    limit: `${rate(L.passwordChangeFailures)}, then the account waits out the window`,
    per: 'account',
    covers: ['passwordChangeFailures'],
  },
  {
    what: 'registrations',
    limit: rate(L.registrationsPerClient),
    per: 'client address',
    covers: ['registrationsPerClient'],
  },
  {
    what: 'code requests and code checks (`/api/verify/`)',
    limit: `${rate(L.verificationsPerClient)}, each`,
    per: 'client address',
    covers: ['verificationsPerClient'],
  },
  {
    what: 'one-time email codes (registration, shared-link answers)',
    limit: `${rate(L.codesPerAddressPerClient)} from one client; ${rate(L.codesPerAddress)} from all clients together; a browser that holds a live code for the address gets a fresh one (up to ${rate(L.codesPerAddressPerBrowser)}) whatever those two say, so a stranger spending them never keeps the owner who asked from a code. Past a limit nothing is sent and the answer is the same`,
    per: 'address and client address; address; address and browser',
    covers: ['codesPerAddressPerClient', 'codesPerAddress', 'codesPerAddressPerBrowser'],
  },
  {
    what: '"this address already has an account" mails (registering a taken address)',
    limit: `${rate(L.accountExistsMails)}; past that nothing is sent and the answer is the same`,
    per: 'address',
    covers: ['accountExistsMails'],
  },
  {
    what: '"forgot password" links',
    limit: `${rate(L.resetsPerAddress)} per address, ${rate(L.resetsPerClient)} per client address; past either nothing is sent and the answer is the same`,
    per: 'address; client address',
    covers: ['resetsPerAddress', 'resetsPerClient'],
  },
  {
    what: 'choosing a new password with a link',
    limit: rate(L.resetChoicesPerClient),
    per: 'client address',
    covers: ['resetChoicesPerClient'],
  },
  {
    what: 'accepting a staff invitation',
    limit: rate(L.invitationAcceptsPerClient),
    per: 'client address',
    covers: ['invitationAcceptsPerClient'],
  },
  {
    what: '"send a new code" for a registration waiting for its code (login page)',
    limit: `${rate(L.codeResendsPerClient)}; the codes themselves count as one-time email codes above`,
    per: 'client address',
    covers: ['codeResendsPerClient'],
  },
  {
    what: 'shared-link and personal-link submissions',
    limit: rate(L.linkSubmissionsPerClient),
    per: 'client address',
    covers: ['linkSubmissionsPerClient'],
  },
  {
    what: 'urgent alerts mailed at once for answers whose sender has not proven the address',
    limit: `${rate(L.unprovenAlertsPerClient)} per client address, ${rate(L.unprovenAlertsPerInstitution)} per institution (\`${L.unprovenAlertsPerClient.env}\`, \`${L.unprovenAlertsPerInstitution.env}\`); past either the case still opens (in the Unconfirmed queue, answer stored and screened, crisis help shown to the sender) and the alert contacts get one digest mail per ${duration(L.unprovenDigest.max)} instead; such a digested case mails no reminders of its own until a proof verifies it. An unproven answer joining a case that alerted already adds a trail entry and mails no one. A proven urgent answer always alerts at once.`,
    per: 'client address and institution',
    covers: ['unprovenAlertsPerClient', 'unprovenAlertsPerInstitution', 'unprovenDigest'],
  },
  {
    what: 'contact form',
    limit: `${rate(L.contactPerClient)}, each post at most ${bytes(L.contactBodyBytes.max)}`,
    per: 'client address',
    covers: ['contactPerClient', 'contactBodyBytes'],
  },
  {
    what: 'CSV exports (dashboard submissions, cases, audit log: one rule for all)',
    limit: rate(L.csvExportsPerClient),
    per: 'client address',
    covers: ['csvExportsPerClient'],
  },
  {
    what: 'roster imports (`POST /api/roster/`)',
    limit: `${rate(L.rosterImportsPerInstitution)}, refused files included; ${rate(L.rosterUploadsPerClient)} per client address; a file holds at most ${L.rosterRows.max.toLocaleString('en-US')} students and ${bytes(L.rosterFileBytes.max)}`,
    per: 'institution; client address; file',
    covers: ['rosterImportsPerInstitution', 'rosterUploadsPerClient', 'rosterRows', 'rosterFileBytes'],
  },
  {
    what: 'single sign-on',
    limit: `address look-ups ${rate(L.ssoDiscoveriesPerClient)}; starts and callbacks ${rate(L.ssoSignInsPerClient)}; a provider's answer at most ${bytes(L.ssoProviderAnswerBytes.max)}`,
    per: 'client address; answer',
    covers: ['ssoDiscoveriesPerClient', 'ssoSignInsPerClient', 'ssoProviderAnswerBytes'],
  },
  {
    what: 'live dashboards open at once',
    limit: String(L.dashboardStreamsPerUser.max),
    per: 'user',
    covers: ['dashboardStreamsPerUser'],
  },
  {
    what: 'request size',
    limit: `body ${bytes(L.bodyBytes.max)} (roster files and the contact form as above); a saved survey draft ${bytes(L.draftBytes.max)}`,
    per: 'request; draft',
    covers: ['bodyBytes', 'draftBytes'],
  },
  {
    what: 'request time',
    limit: `whole request ${duration(L.requestTime.max)}, headers ${duration(L.headersTime.max)}, idle connection ${duration(L.idleConnection.max)}, keep-alive ${duration(L.keepAlive.max)}`,
    per: 'connection',
    covers: ['requestTime', 'headersTime', 'idleConnection', 'keepAlive'],
  },
];

/** The README's Limits table as markdown, header included. */
export function limitsTableMarkdown(): string {
  const lines = ['| what | limit | counted per |', '|---|---|---|'];
  for (const row of LIMIT_ROWS) lines.push(`| ${row.what} | ${row.limit} | ${row.per} |`);
  return lines.join('\n');
}
