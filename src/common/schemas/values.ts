// The contract's plain values that screens read: no schema here, so that a page importing them
// brings no zod with them. The schemas' modules export them too, beside the schemas using them.
import type { SurveyEntry, SurveyInstrumentBlock } from './surveys';

/**
 * What went wrong, for clients to branch on; the message is for people and may change.
 * `REQUIRES_AUTH` is the spec's `requires_auth: true` case (a visitor must sign in to submit).
 */
export const ERROR_CODES = [
  'BAD_REQUEST', // 400: understood, but not acceptable (a rule of the product)
  'VALIDATION_FAILED', // 400: body, query or path does not match the contract
  'UNAUTHENTICATED', // 401: sign in first
  'REQUIRES_AUTH', // 401: answers kept; sign in, then submit again
  'FORBIDDEN', // 403: signed in, not allowed
  'ADDRESS_UNCONFIRMED', // 403: right password, but the address was never confirmed: ask for a new code
  'CSRF_FAILED', // 403: fetch a fresh CSRF token and retry once
  'SECOND_FACTOR_REQUIRED', // 403: staff signed in with a password alone; see `second_factor`
  'STEP_UP_REQUIRED', // 403: prove the second factor again (POST /api/second-factor/step-up/), then retry
  'NOT_FOUND', // 404
  'CONFLICT', // 409: the state changed underneath the request
  'CONNECTION_UNTESTED', // 409: test the single sign-on connection with these settings, then save again
  'LEGAL_HOLD', // 409: the student's data is under a legal hold: nothing of it may be erased
  'RECORDS_REQUEST_OPEN', // 409: the student's records request is still open: fulfil it before erasing
  'REQUEST_TIMEOUT', // 408: the body arrived too slowly
  'PAYLOAD_TOO_LARGE', // 413
  'URI_TOO_LONG', // 414: the address (a path parameter) is longer than any real one
  'UNSUPPORTED_MEDIA_TYPE', // 415
  'TOO_MANY_REQUESTS', // 429: wait (see Retry-After) and try again
  'HEADERS_TOO_LARGE', // 431: the request's headers (cookies, usually) are too large
  'INTERNAL', // 500: our fault
  'DATABASE_UNAVAILABLE', // 503: try again shortly (see Retry-After)
  'SHUTTING_DOWN', // 503: this instance is stopping; try again shortly (see Retry-After)
] as const;

/** The longest address mail can carry (RFC 5321), and the longest any email field accepts. */
export const EMAIL_MAX_LENGTH = 254;

/** The digits of a one-time code (schemas/verify.ts). */
export const VERIFICATION_CODE_LENGTH = 6;

/** A code as the mail gives it: its digits and nothing else (spaces around them are trimmed first). */
export const VERIFICATION_CODE_PATTERN = new RegExp(`^[0-9]{${VERIFICATION_CODE_LENGTH}}$`);

/** Most unproven submissions one tab may ask a proof to promote. */
export const PROOF_TOKENS_MAX = 20;

/** Spec sections 2 and 8: the server answers with these, and the screens show them in the same states. */
export const LINK_NOT_FOUND = 'Survey link not found or has expired.';
export const NO_SURVEY_FOR_INSTITUTION =
  'No survey questions are currently available for your institution. Please contact your administrator.';

export const TEXT_ANSWER_MAX_LENGTH = 5000;
export const STUDENT_NAME_MAX_LENGTH = 200;

/** The kind of a template's entry that is a whole instrument (schemas/questions.ts). */
export const INSTRUMENT_BLOCK = 'instrument';

export function isSurveyInstrument(entry: SurveyEntry): entry is SurveyInstrumentBlock {
  return 'kind' in entry && entry.kind === INSTRUMENT_BLOCK;
}

/** The Likert values in the order the survey lists them: 1 = Excellent ... 5 = Very Poor. */
export const LIKERT_VALUES = ['1', '2', '3', '4', '5'] as const;

/** Whether an answer, as stored or sent, is one of the Likert values ("1" to "5", nothing else). */
export function isLikertValue(value: unknown): value is (typeof LIKERT_VALUES)[number] {
  return (LIKERT_VALUES as readonly unknown[]).includes(value);
}

/**
 * The number as a phone dials it: its digits, after a "+" when it was written with one (a crisis
 * resource's, risk/crisis-resources.ts).
 */
export function dialString(written: string): string {
  const trimmed = written.trim();
  return `${trimmed.startsWith('+') ? '+' : ''}${trimmed.replace(/\D/g, '')}`;
}

/** Why a sign-in through the institution failed; the login screen explains each. */
export const SSO_ERRORS = [
  'failed',
  'unreachable',
  'domain',
  'expired',
  'account',
  'browser',
  'signed_in',
  'unlinked',
  'unverified',
] as const;

/**
 * What a submission's answer says (the `message` of a survey's submit), by what happens next:
 * the server writes them, the survey screen shows them in the reader's language.
 */
export const SUBMIT_MESSAGES = {
  submitted: 'Thank you! Your responses have been submitted.',
  received: 'Thank you! Your responses have been received.',
  confirmAddress:
    'Thank you! Your responses have been received. Confirm your email address with the code we send you, so they count as yours.',
} as const;
