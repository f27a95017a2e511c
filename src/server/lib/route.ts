import type {
  FastifyBaseLogger,
  FastifyContextConfig,
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  onRequestHookHandler,
  preHandlerHookHandler,
  preValidationHookHandler,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
} from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod/mini';
import { type Endpoint, type Method, type Schema, staffAbility } from '../../common/endpoints/endpoint';
import { ErrorResponse } from '../../common/schemas/common';
import { requireStaff, type StaffUser } from './guards';

/** A plugin's instance, plain or with the zod type provider. */
export type RouteApp = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  ZodTypeProvider
>;

type Output<E, K extends 'params' | 'query' | 'body'> = E extends { [key in K]: infer S extends Schema }
  ? z.output<S>
  : unknown;

/** The request of an endpoint's handler: its params, query and body typed from its schemas. */
export type EndpointRequest<E extends Endpoint> = FastifyRequest<{
  Params: Output<E, 'params'>;
  Querystring: Output<E, 'query'>;
  Body: Output<E, 'body'>;
}>;

/** What a handler may answer: its JSON success body, or the reply it sent itself (a file, a redirect). */
type Answer<E extends Endpoint> =
  | (E['response'] extends { schema: infer S extends Schema; type?: 'json' } ? z.input<S> : never)
  | FastifyReply;

/** The staff member a staff endpoint's guard let through; nothing for the others. */
type Caller<E extends Endpoint> = E['access'] extends { staff: string } ? StaffUser : undefined;

export type EndpointHandler<E extends Endpoint> = (
  request: EndpointRequest<E>,
  reply: FastifyReply,
  staff: Caller<E>,
) => Answer<E> | Promise<Answer<E>>;

/** What a route adds to its endpoint: its own config (limits, CSRF) and hooks. */
export interface RouteExtras {
  config?: FastifyContextConfig;
  bodyLimit?: number;
  onRequest?: onRequestHookHandler;
  preValidation?: preValidationHookHandler;
  preHandler?: preHandlerHookHandler;
}

/** A redirect's body: none. */
const NO_BODY = z.null();

const SAFE_METHODS: ReadonlySet<Method> = new Set(['GET']);

/**
 * The OpenAPI security of an operation: the session cookie for anything behind a sign-in, and
 * the CSRF header for every unsafe call the request guard checks (lib/request-guard.ts).
 */
function securityOf(entry: Endpoint, extras: RouteExtras): Record<string, string[]>[] {
  const requirement: Record<string, string[]> = {};
  if (entry.access !== 'public') requirement.session = [];
  if (!SAFE_METHODS.has(entry.method) && extras.config?.csrf !== false) requirement.csrf = [];
  return Object.keys(requirement).length > 0 ? [requirement] : [];
}

const ACCESS_WORDS = {
  public: 'Anyone, signed in or not.',
  session: 'A signed-in user, whose sign-in may still wait for its second factor.',
  user: 'A signed-in user.',
  student: 'A signed-in student.',
} as const;

function accessDescription(entry: Endpoint): string {
  const ability = staffAbility(entry.access);
  return ability
    ? `Staff whose role has the "${ability}" ability.`
    : ACCESS_WORDS[entry.access as keyof typeof ACCESS_WORDS];
}

/** Fastify's schema of an endpoint: what is validated, serialized and documented. */
export function routeSchema(entry: Endpoint, extras: RouteExtras = {}) {
  const response: Record<number, Schema> = {};
  if ('schema' in entry.response) response[entry.response.status] = entry.response.schema;
  if ('redirect' in entry.response) response[entry.response.status] = NO_BODY;
  else if (!('schema' in entry.response))
    response[entry.response.status] = z.string().check(z.describe(entry.response.type));
  for (const status of entry.errors) response[status] = ErrorResponse;
  Object.assign(response, entry.alternatives);
  return {
    ...(entry.hidden && { hide: true }),
    tags: [...entry.tags],
    summary: entry.summary,
    description: [entry.description, `Who may call it: ${accessDescription(entry)}`]
      .filter(Boolean)
      .join('\n\n'),
    security: securityOf(entry, extras),
    ...(entry.params && { params: entry.params }),
    ...(entry.query && { querystring: entry.query }),
    ...(entry.body && { body: entry.body }),
    response,
  };
}

/**
 * Registers an endpoint of the contract (common/endpoints) with its handler. A staff endpoint's
 * guard runs before the request is validated (`preValidation`), so a caller who may not use it
 * learns nothing from a 400; the handler is given the staff member it let through. Other
 * guards are the handler's own, as they always were.
 */
export function route<E extends Endpoint>(
  app: RouteApp | FastifyInstance,
  entry: E,
  handler: EndpointHandler<E>,
  extras: RouteExtras = {},
): void {
  const ability = staffAbility(entry.access);
  const guard = ability ? (request: FastifyRequest) => requireStaff(request, ability) : null;
  const preValidation = [
    ...(guard
      ? [
          async (request: FastifyRequest) => {
            guard(request);
          },
        ]
      : []),
    ...(extras.preValidation ? [extras.preValidation] : []),
  ];
  (app as FastifyInstance).route({
    ...extras,
    method: entry.method,
    url: entry.path,
    schema: routeSchema(entry, extras),
    ...(preValidation.length > 0 && { preValidation: preValidation as preValidationHookHandler[] }),
    handler: (request, reply) =>
      handler(request as EndpointRequest<E>, reply, (guard ? guard(request) : undefined) as Caller<E>),
  });
}
