import type http from 'node:http';
import type { Timeouts } from '../config';

/**
 * Fastify's defaults leave the request timeout off, so a client sending one byte every few
 * seconds keeps its connection (and its place in the server) forever. These close such a
 * connection with 408 once the request has taken too long, however steadily the bytes trickle.
 */
export function serverTimeouts(timeouts: Timeouts): {
  requestTimeout: number;
  connectionTimeout: number;
  keepAliveTimeout: number;
  http: http.ServerOptions;
} {
  return {
    requestTimeout: timeouts.requestMs,
    connectionTimeout: timeouts.idleMs,
    keepAliveTimeout: timeouts.keepAliveMs,
    http: {
      headersTimeout: timeouts.headersMs,
      // Node checks the two limits above on this interval (30 s by default).
      connectionsCheckingInterval: timeouts.checkIntervalMs,
    },
  };
}
