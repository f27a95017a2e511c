import http from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import type { ErrorCode, ErrorResponse } from '../../common/schemas/common';
import { databaseUnavailability } from '../db/availability';

const STATUS_BY_CODE: Record<ErrorCode, number> = {
  BAD_REQUEST: 400,
  VALIDATION_FAILED: 400,
  UNAUTHENTICATED: 401,
  REQUIRES_AUTH: 401,
  FORBIDDEN: 403,
  ADDRESS_UNCONFIRMED: 403,
  CSRF_FAILED: 403,
  SECOND_FACTOR_REQUIRED: 403,
  STEP_UP_REQUIRED: 403,
  NOT_FOUND: 404,
  REQUEST_TIMEOUT: 408,
  CONFLICT: 409,
  CONNECTION_UNTESTED: 409,
  LEGAL_HOLD: 409,
  RECORDS_REQUEST_OPEN: 409,
  PAYLOAD_TOO_LARGE: 413,
  URI_TOO_LONG: 414,
  UNSUPPORTED_MEDIA_TYPE: 415,
  TOO_MANY_REQUESTS: 429,
  HEADERS_TOO_LARGE: 431,
  INTERNAL: 500,
  DATABASE_UNAVAILABLE: 503,
  SHUTTING_DOWN: 503,
};

/** Seconds a client is asked to wait after a 503: outages we answer this way are short. */
export const RETRY_AFTER_SECONDS = 2;

/** The answer to every request refused for coming too often, whichever limit refused it. */
export const TOO_MANY_REQUESTS_MESSAGE = 'Too many requests. Please wait a minute and try again.';

const SERVER_FAULT_MESSAGE = 'Something went wrong on our side. Please try again.';

/** A failure the caller can act on; its message is shown to users as-is. */
export class AppError extends Error {
  readonly statusCode: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
    /** Extra fields for the error body, e.g. `requires_auth`. */
    readonly extra: Record<string, unknown> = {},
    /** Seconds the client should wait before trying again, sent as Retry-After. */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
    this.statusCode = STATUS_BY_CODE[code];
  }
}

/** The same 404 for an address no route serves and for a record that does not exist. */
export function unknownEndpoint(method: string, url: string): AppError {
  return new AppError('NOT_FOUND', `No such endpoint: ${method} ${url.split('?')[0]}`);
}

/** A missing and a wrong token read the same: either way the client fetches a fresh one. */
const CSRF_FAILED = {
  code: 'CSRF_FAILED',
  message: 'CSRF token missing or incorrect. Reload the page and try again.',
} as const;

/** Fastify's own client errors: our code for each, and a message worded for people rather than developers. */
const FRAMEWORK_ERRORS: Record<string, { code: ErrorCode; message: string }> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: {
    code: 'UNSUPPORTED_MEDIA_TYPE',
    message: 'Unsupported content type: send application/json',
  },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: {
    code: 'BAD_REQUEST',
    message: 'Request body length does not match Content-Length',
  },
  FST_ERR_CTP_BODY_TOO_LARGE: { code: 'PAYLOAD_TOO_LARGE', message: 'Request body is too large' },
  FST_ERR_CTP_EMPTY_JSON_BODY: { code: 'BAD_REQUEST', message: 'Request body is empty: send a JSON object' },
  FST_ERR_CTP_INVALID_JSON_BODY: { code: 'BAD_REQUEST', message: 'Request body is not valid JSON' },
  FST_CSRF_MISSING_SECRET: CSRF_FAILED,
  FST_CSRF_INVALID_TOKEN: CSRF_FAILED,
  FST_ERR_VALIDATION: { code: 'VALIDATION_FAILED', message: 'Invalid request' },
  FST_ERR_BAD_URL: { code: 'BAD_REQUEST', message: 'The address is not valid' },
  FST_ERR_MAX_PARAM_LENGTH: { code: 'URI_TOO_LONG', message: 'The address is too long' },
};

/** The code of any other client error Fastify or a plugin raises, from its status. */
function codeForStatus(status: number): ErrorCode {
  const match = (Object.entries(STATUS_BY_CODE) as [ErrorCode, number][]).find(([, s]) => s === status);
  return match?.[0] ?? 'BAD_REQUEST';
}

function validationMessage(error: FastifyError): string {
  if (!hasZodFastifySchemaValidationErrors(error)) return error.message;
  const first = error.validation[0];
  if (!first) return 'Invalid request';
  // Zod's default texts ("Invalid input: expected string, received undefined") need the field name.
  const field = first.instancePath.replace(/^\//, '').replaceAll('/', '.');
  const message = first.message ?? 'Invalid value';
  return message.startsWith('Invalid input') && field ? `${field}: ${message}` : message;
}

/** Every failure body: `{ success: false, code, message }` plus any extra fields the spec asks for. */
function errorBody(code: ErrorCode, message: string, extra: Record<string, unknown> = {}): ErrorResponse {
  return { success: false, code, message, ...extra };
}

/** The one way an error body is sent: the code decides the status (and Retry-After for an outage). */
export function sendError(
  reply: FastifyReply,
  code: ErrorCode,
  message: string,
  options: { status?: number; extra?: Record<string, unknown> } = {},
) {
  if (STATUS_BY_CODE[code] === 503) reply.header('Retry-After', String(RETRY_AFTER_SECONDS));
  return reply.status(options.status ?? STATUS_BY_CODE[code]).send(errorBody(code, message, options.extra));
}

/** The one place a thrown error becomes a response. */
export function handleError(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  if (error instanceof AppError) {
    if (error.retryAfterSeconds !== undefined) reply.header('Retry-After', String(error.retryAfterSeconds));
    return sendError(reply, error.code, error.message, { extra: error.extra });
  }
  // An outage is the database's, not the request's: no stack per request, one line per outage.
  const unavailable = request.server.db?.health.failed(error) ?? databaseUnavailability(error);
  if (unavailable) return sendError(reply, 'DATABASE_UNAVAILABLE', unavailable.message);
  if (hasZodFastifySchemaValidationErrors(error)) {
    return sendError(reply, 'VALIDATION_FAILED', validationMessage(error));
  }
  // Only the body parser's own code: a SyntaxError thrown by server code is our fault, not bad input.
  if (error.code === 'FST_ERR_CTP_INVALID_JSON_BODY') {
    const known = FRAMEWORK_ERRORS.FST_ERR_CTP_INVALID_JSON_BODY as { code: ErrorCode; message: string };
    return sendError(reply, known.code, known.message);
  }
  if (
    !isResponseSerializationError(error) &&
    error.statusCode &&
    error.statusCode >= 400 &&
    error.statusCode < 500
  ) {
    const status = error.statusCode;
    if (status === 429) return sendError(reply, 'TOO_MANY_REQUESTS', TOO_MANY_REQUESTS_MESSAGE);
    const known = FRAMEWORK_ERRORS[error.code];
    return sendError(reply, known?.code ?? codeForStatus(status), known?.message ?? 'Invalid request', {
      status,
    });
  }
  request.log.error({ err: error }, 'unhandled error');
  return sendError(reply, 'INTERNAL', SERVER_FAULT_MESSAGE);
}

/**
 * Errors Node raises before a request reaches Fastify's routing (a body or headers too slow, headers
 * too large, a malformed request line): answered on the raw socket, in the same shape, then closed.
 */
export function handleClientError(error: NodeJS.ErrnoException, socket: Socket) {
  // A reset connection has nobody left to answer.
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [code, message]: [ErrorCode, string] =
    error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? ['REQUEST_TIMEOUT', 'The request took too long to arrive. Please try again.']
      : error.code === 'HPE_HEADER_OVERFLOW'
        ? ['HEADERS_TOO_LARGE', 'The request headers are too large']
        : ['BAD_REQUEST', 'The request is malformed'];
  const status = STATUS_BY_CODE[code];
  const body = JSON.stringify(errorBody(code, message));
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
        `Content-Type: application/json; charset=utf-8\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}
