import crypto from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { readHostCookie, setHostCookie } from './host-cookie';

/**
 * The browser, signed in or not: an opaque random id in an HttpOnly cookie that lasts as long as
 * the browser session. Addresses proven with a code are proven for this browser only, and a
 * submission or registration it sent can be completed only from it. Only the id's hash is stored.
 * A `__Host-` cookie over HTTPS, and a new id at every proof: an id planted in someone's browser
 * (or read from it) is worth nothing once they prove an address.
 */
const VISITOR_COOKIE = 'visitorid';

function hashVisitorId(id: string): string {
  return crypto.createHash('sha256').update(`visitor:${id}`).digest('hex');
}

/** The hash of this browser's visitor id; a browser without one (or with a malformed one) gets one. */
export function visitorHash(request: FastifyRequest, reply: FastifyReply): string {
  const existing = readHostCookie(request, VISITOR_COOKIE);
  if (existing && /^[A-Za-z0-9_-]{43}$/.test(existing)) return hashVisitorId(existing);
  const id = crypto.randomBytes(32).toString('base64url');
  setHostCookie(request, reply, VISITOR_COOKIE, id);
  return hashVisitorId(id);
}

/** This browser now, and the id it takes on once it proves an address. */
export interface ProvingVisitor {
  /** The current id's hash: what this browser sent and asked for so far. */
  hash: string;
  /** The next id's hash, to record the proof under. */
  nextHash: string;
  /** Gives the browser its next id: call once the proof is committed. */
  adoptNext: () => void;
}

/** A visitor about to prove an address: its id changes with the proof (see above). */
export function provingVisitor(request: FastifyRequest, reply: FastifyReply): ProvingVisitor {
  const hash = visitorHash(request, reply);
  const nextId = crypto.randomBytes(32).toString('base64url');
  return {
    hash,
    nextHash: hashVisitorId(nextId),
    adoptNext: () => setHostCookie(request, reply, VISITOR_COOKIE, nextId),
  };
}
