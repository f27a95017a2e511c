import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import type { CustomFetchOptions } from 'openid-client';
import { LIMITS } from '../../limit-table';

/**
 * The only way the server reaches an institution's provider. An admin types the issuer address,
 * and the provider's discovery document names further addresses (token, keys, userinfo): left to
 * themselves, they would have the server call anything it can reach, databases and cloud metadata
 * services included, and tell open ports from closed ones. So every name is resolved here, every
 * address it resolves to must be public, and the connection goes to the address that was checked
 * (the name is not looked up a second time, so a name that changes its answer between the check
 * and the connection, DNS rebinding, gets nowhere).
 */

/** How far the server may reach. Loopback (and plain http) only in development, when asked for. */
export interface ProviderNetworkPolicy {
  allowLoopback: boolean;
}

/** An address the provider's name or URL led to that the server will not call. */
export class ProviderAddressRefused extends Error {}

const LOOPBACK = new net.BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');

/**
 * Never public: unspecified, private (RFC 1918, shared CGNAT space, ULA), loopback, link-local,
 * multicast, reserved and documentation ranges, and IPv6 forms that carry an IPv4 address
 * (IPv4-mapped addresses are matched against the IPv4 rules by BlockList itself).
 */
const NOT_PUBLIC = new net.BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  NOT_PUBLIC.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of [
  ['::', 96],
  ['64:ff9b::', 96],
  ['100::', 64],
  ['2001:db8::', 32],
  ['2002::', 16],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const)
  NOT_PUBLIC.addSubnet(network, prefix, 'ipv6');

function familyOf(address: string): 'ipv4' | 'ipv6' {
  return net.isIPv4(address) ? 'ipv4' : 'ipv6';
}

export function isPublicAddress(address: string): boolean {
  if (!net.isIP(address)) return false;
  return !NOT_PUBLIC.check(address, familyOf(address));
}

function isLoopbackAddress(address: string): boolean {
  return net.isIP(address) !== 0 && LOOPBACK.check(address, familyOf(address));
}

/** Whether the server may connect to this address under the policy. */
export function mayConnectTo(address: string, policy: ProviderNetworkPolicy): boolean {
  return isPublicAddress(address) || (policy.allowLoopback && isLoopbackAddress(address));
}

type AddressCheck = (address: string) => boolean;

export type Resolver = (hostname: string) => Promise<{ address: string; family: number }[]>;

const systemResolver: Resolver = (hostname) => dns.promises.lookup(hostname, { all: true, verbatim: true });

type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | dns.LookupAddress[],
  family?: number,
) => void;

/**
 * A `lookup` for the connection: resolves the name once, refuses it when any of its addresses
 * may not be called (a name with one public and one private address is no provider), and hands
 * the socket exactly the addresses it checked.
 */
function checkedLookup(allowed: AddressCheck, resolve: Resolver) {
  return (hostname: string, options: dns.LookupOptions, callback: LookupCallback) => {
    resolve(hostname).then(
      (addresses) => {
        if (addresses.length === 0 || addresses.some(({ address }) => !allowed(address)))
          return callback(
            new ProviderAddressRefused(`${hostname} resolves to an address the server does not call`),
            [],
          );
        const usable = options.family
          ? addresses.filter(({ family }) => family === options.family)
          : addresses;
        const chosen = usable.length > 0 ? usable : addresses;
        if (options.all) return callback(null, chosen);
        const first = chosen[0] as dns.LookupAddress;
        return callback(null, first.address, first.family);
      },
      (error: NodeJS.ErrnoException) => callback(error, []),
    );
  };
}

function bodyOf(body: CustomFetchOptions['body']): string | Buffer | undefined {
  if (body === null || body === undefined) return undefined;
  if (typeof body === 'string') return body;
  if (body instanceof URLSearchParams) return body.toString();
  if (body instanceof Uint8Array) return Buffer.from(body);
  if (body instanceof ArrayBuffer) return Buffer.from(body);
  throw new TypeError('a streamed body is not sent to a provider');
}

function responseHeaders(incoming: http.IncomingHttpHeaders): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(incoming)) {
    if (value === undefined) continue;
    for (const one of [value].flat()) headers.append(name, one);
  }
  return headers;
}

/** Statuses whose answer has no body, which Response refuses to be given one. */
const NO_BODY = new Set([204, 205, 304]);

/**
 * A fetch for openid-client (its `customFetch`) that reaches providers only at addresses the
 * policy allows, over https (http on loopback in development), and reads at most 1 MiB.
 */
export function providerFetch(policy: ProviderNetworkPolicy, resolve: Resolver = systemResolver) {
  // https reaches public addresses (and loopback in development); plain http, loopback only.
  const httpsAllowed: AddressCheck = (address) => mayConnectTo(address, policy);
  const httpsLookup = checkedLookup(httpsAllowed, resolve);
  const httpLookup = checkedLookup(isLoopbackAddress, resolve);
  return async (url: string, options: CustomFetchOptions): Promise<Response> => {
    const target = new URL(url);
    const secure = target.protocol === 'https:';
    if (!secure && !(target.protocol === 'http:' && policy.allowLoopback))
      throw new ProviderAddressRefused(`${target.protocol} is not a provider's scheme`);
    // An address written as such is never looked up: it is checked here instead.
    const allowed = secure ? httpsAllowed : isLoopbackAddress;
    const literal = target.hostname.replace(/^\[(.*)\]$/, '$1');
    if (net.isIP(literal) && !allowed(literal))
      throw new ProviderAddressRefused(`${literal} is an address the server does not call`);
    const body = bodyOf(options.body);
    const headers = { ...options.headers };
    return new Promise<Response>((resolveResponse, reject) => {
      const request = (secure ? https : http).request(
        target,
        {
          method: options.method,
          headers,
          lookup: (secure ? httpsLookup : httpLookup) as unknown as typeof dns.lookup,
          ...(options.signal ? { signal: options.signal } : {}),
          // A connection of its own, so no pooled socket to another address is reused.
          agent: false,
        },
        (incoming) => {
          const chunks: Buffer[] = [];
          let size = 0;
          incoming.on('data', (chunk: Buffer) => {
            size += chunk.length;
            if (size > LIMITS.ssoProviderAnswerBytes.max) {
              incoming.destroy();
              reject(new ProviderAddressRefused('the provider answered more than 1 MiB'));
              return;
            }
            chunks.push(chunk);
          });
          incoming.on('error', reject);
          incoming.on('end', () => {
            try {
              const status = incoming.statusCode ?? 0;
              resolveResponse(
                new Response(NO_BODY.has(status) ? null : Buffer.concat(chunks), {
                  status,
                  statusText: incoming.statusMessage ?? '',
                  headers: responseHeaders(incoming.headers),
                }),
              );
            } catch (error) {
              reject(error);
            }
          });
        },
      );
      request.on('error', reject);
      request.end(body);
    });
  };
}
