import type { Config } from '../config';
import type { Db } from '../db';
import type { JobWorker } from './jobs';
import type { MailWorker } from './mail/worker';
import type { Session } from './sessions';

declare module 'fastify' {
  interface FastifyInstance {
    db: Db;
    config: Config;
    /** Delivers queued mail; wake it after committing mail to the outbox. */
    mail: MailWorker;
    /** Runs durable jobs; features add their kinds with `handle`, and wake it after scheduling due work. */
    jobs: JobWorker;
  }
  interface FastifyRequest {
    /** Resolved from the session cookie before any handler runs; null when anonymous. */
    session: Session | null;
  }
}
