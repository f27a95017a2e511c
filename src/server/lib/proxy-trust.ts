/**
 * Fastify's trust decision for X-Forwarded-* headers, from the number of reverse proxies in front
 * of the server. Each proxy appends the address it received the request from, so the client's
 * address is the entry that many hops back; anything further left was written by the client and
 * proves nothing. (Fastify's own numeric `trustProxy` trusts no hop at all, and `true` trusts
 * every one, which let a client pick its own address by rotating the left-most entry.)
 *
 * `hop` counts from the socket's peer (0) leftwards through X-Forwarded-For.
 */
export function proxyTrust(hops: number): false | ((address: string, hop: number) => boolean) {
  if (hops <= 0) return false;
  return (_address, hop) => hop < hops;
}
