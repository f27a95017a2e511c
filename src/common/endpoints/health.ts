import { z } from 'zod/mini';
import { endpoint } from './endpoint';

/** Why an instance is not ready, for the balancer's log and the operator. */
export const NOT_READY_CODES = [
  'MIGRATIONS_PENDING',
  'DATABASE_UNAVAILABLE',
  'DATABASE_RECOVERING',
  'DATABASE_POOL_EXHAUSTED',
  'CHECKPOINTS_FAILING',
] as const;

const Health = /*#__PURE__*/ z.object({ status: z.enum(['live', 'ready']) });

const NotReady = /*#__PURE__*/ z.object({
  status: z.literal('unavailable'),
  code: z.enum(NOT_READY_CODES),
  reason: z.string(),
});

const tags = ['health'];

export const checkLiveness = /*#__PURE__*/ endpoint({
  method: 'GET',
  path: '/api/health/live',
  summary: 'The process is up and answering',
  tags,
  response: { status: 200, schema: Health },
  errors: [],
  access: 'public',
});

export const checkReadiness = /*#__PURE__*/ endpoint({
  method: 'GET',
  path: '/api/health/ready',
  summary:
    'This instance can write to its database now: send traffic here (503 with a code and reason otherwise)',
  tags,
  response: { status: 200, schema: Health },
  alternatives: { 503: NotReady },
  errors: [],
  access: 'public',
});
