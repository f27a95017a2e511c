import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { databaseUnavailability } from '../db/availability';

const STATUS_BY_CODE = {
  BAD_REQUEST: 400,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  TOO_MANY_REQUESTS: 429,
  DATABASE_UNAVAILABLE: 503,
} as const;

/** Seconds a client is asked to wait after a 503: outages we answer this way are short. */
export const RETRY_AFTER_SECONDS = 2;

export type ErrorCode = keyof typeof STATUS_BY_CODE;

/** A failure the caller can act on; its message is shown to users as-is. */
export class AppError extends Error {
  readonly statusCode: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
    /** Extra fields for the error body, e.g. `requires_auth`. */
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
    this.statusCode = STATUS_BY_CODE[code];
  }
}

/** Messages for Fastify's own client errors, worded for people rather than for developers. */
const FRAMEWORK_MESSAGES: Record<string, string> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'Unsupported content type: send application/json',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'Request body length does not match Content-Length',
  FST_ERR_CTP_BODY_TOO_LARGE: 'Request body is too large',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'Request body is empty: send a JSON object',
  FST_ERR_CTP_INVALID_JSON_BODY: 'Request body is not valid JSON',
  FST_CSRF_MISSING_SECRET: 'CSRF token missing or incorrect. Reload the page and try again.',
  FST_CSRF_INVALID_TOKEN: 'CSRF token missing or incorrect. Reload the page and try again.',
  FST_ERR_VALIDATION: 'Invalid request',
  FST_ERR_BAD_URL: 'The address is not valid',
  FST_ERR_MAX_PARAM_LENGTH: 'The address is too long',
};

function validationMessage(error: FastifyError): string {
  if (!hasZodFastifySchemaValidationErrors(error)) return error.message;
  const first = error.validation[0];
  if (!first) return 'Invalid request';
  // Zod's default texts ("Invalid input: expected string, received undefined") need the field name.
  const field = first.instancePath.replace(/^\//, '').replaceAll('/', '.');
  const message = first.message ?? 'Invalid value';
  return message.startsWith('Invalid input') && field ? `${field}: ${message}` : message;
}

export function errorBody(message: string, extra: Record<string, unknown> = {}) {
  return { success: false as const, message, ...extra };
}

/** The one place an error becomes a response: `{ success: false, message }` and a fitting status. */
export function handleError(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  if (error instanceof AppError) {
    if (error.statusCode === 503) reply.header('Retry-After', String(RETRY_AFTER_SECONDS));
    return reply.status(error.statusCode).send(errorBody(error.message, error.extra));
  }
  // An outage is the database's, not the request's: no stack per request, one line per outage.
  const unavailable = request.server.db?.health.failed(error) ?? databaseUnavailability(error);
  if (unavailable) {
    return reply
      .status(503)
      .header('Retry-After', String(RETRY_AFTER_SECONDS))
      .send(errorBody(unavailable.message, { code: 'DATABASE_UNAVAILABLE' }));
  }
  if (hasZodFastifySchemaValidationErrors(error)) {
    return reply.status(400).send(errorBody(validationMessage(error)));
  }
  // Only the body parser's own code: a SyntaxError thrown by server code is our fault, not bad input.
  if (error.code === 'FST_ERR_CTP_INVALID_JSON_BODY') {
    return reply.status(400).send(errorBody(FRAMEWORK_MESSAGES.FST_ERR_CTP_INVALID_JSON_BODY as string));
  }
  if (
    !isResponseSerializationError(error) &&
    error.statusCode &&
    error.statusCode >= 400 &&
    error.statusCode < 500
  ) {
    const message =
      error.statusCode === 429
        ? 'Too many requests. Please wait a moment and try again.'
        : (FRAMEWORK_MESSAGES[error.code] ?? 'Invalid request');
    return reply.status(error.statusCode).send(errorBody(message));
  }
  request.log.error({ err: error }, 'unhandled error');
  return reply.status(500).send(errorBody('Something went wrong on our side. Please try again.'));
}
