import type { Config } from '../config';
import type { Db } from '../db';
import type { Session } from './sessions';

declare module 'fastify' {
  interface FastifyInstance {
    db: Db;
    config: Config;
  }
  interface FastifyRequest {
    /** Resolved from the session cookie before any handler runs; null when anonymous. */
    session: Session | null;
  }
}
