import type { Config } from '../config';
import type { Db } from '../db';
import type { MailWorker } from './mail/worker';
import type { Session } from './sessions';

declare module 'fastify' {
  interface FastifyInstance {
    db: Db;
    config: Config;
    /** Delivers queued mail; wake it after committing mail to the outbox. */
    mail: MailWorker;
  }
  interface FastifyRequest {
    /** Resolved from the session cookie before any handler runs; null when anonymous. */
    session: Session | null;
  }
}
