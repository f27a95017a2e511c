/**
 * Live updates: "institution N changed" told to every app instance, and Server-Sent Events
 * streams that carry fresh data to the browsers watching. Features use only what is exported here.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db';
import { changeSourceFor } from './change-source';
import { LiveHub } from './live-hub';

export { announceChange, announceChangeAfterCommit } from './change-feed';
export { EventStream } from './event-stream';
export type { LiveHub } from './live-hub';

/**
 * The hub that keeps this instance's open streams up to date: it hears every committed change to
 * the database (any instance's) and delivers `load(institutionId)` to that institution's watchers.
 */
export function openLiveHub<Data>(options: {
  db: Db;
  log: FastifyBaseLogger;
  load: (institutionId: number) => Promise<Data>;
}): LiveHub<Data> {
  return new LiveHub({
    source: changeSourceFor(options.db, options.log),
    load: options.load,
    log: options.log,
  });
}
