import * as account from './account';
import * as audit from './audit';
import * as auth from './auth';
import * as campaignInvitations from './campaign-invitations';
import * as campaigns from './campaigns';
import * as cases from './cases';
import * as contact from './contact';
import * as dashboard from './dashboard';
import * as drafts from './drafts';
import type { Endpoint } from './endpoint';
import * as erasure from './erasure';
import * as health from './health';
import * as institutions from './institutions';
import * as legalHolds from './legal-holds';
import * as passkeys from './passkeys';
import * as passwordReset from './password-reset';
import * as recordsRequests from './records-requests';
import * as retention from './retention';
import * as roster from './roster';
import * as secondFactor from './second-factor';
import * as sso from './sso';
import * as staff from './staff';
import * as studentRecords from './student-records';
import * as surveys from './surveys';
import * as templates from './templates';
import * as unconfirmedAddress from './unconfirmed-address';
import * as verify from './verify';

/**
 * Every endpoint of the API, for the server's tests and tools: never imported by the web app,
 * whose pages import the single entries they call.
 */
const MODULES = [
  account,
  audit,
  auth,
  campaignInvitations,
  campaigns,
  cases,
  contact,
  dashboard,
  drafts,
  erasure,
  health,
  institutions,
  legalHolds,
  passkeys,
  passwordReset,
  recordsRequests,
  retention,
  roster,
  secondFactor,
  sso,
  staff,
  studentRecords,
  surveys,
  templates,
  unconfirmedAddress,
  verify,
];

function isEndpoint(value: unknown): value is Endpoint {
  return typeof value === 'object' && value !== null && 'method' in value && 'path' in value;
}

export const ENDPOINTS: readonly Endpoint[] = MODULES.flatMap((module) =>
  Object.values(module).filter(isEndpoint),
);
