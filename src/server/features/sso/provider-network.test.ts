import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isPublicAddress, ProviderAddressRefused, providerFetch, type Resolver } from './provider-network';

/** A provider stand-in on this machine that counts the connections it gets. */
async function localServer() {
  let connections = 0;
  const hosts: string[] = [];
  const server = http.createServer((request, response) => {
    hosts.push(String(request.headers.host));
    response.setHeader('content-type', 'application/json');
    response.end('{"ok":true}');
  });
  server.on('connection', () => {
    connections += 1;
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    connections: () => connections,
    hosts,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const GET = { method: 'GET', headers: {}, body: undefined, redirect: 'manual' as const };

/** A name server that answers `addresses` for every name, and counts the questions. */
function answering(...addresses: string[]) {
  const asked: string[] = [];
  const resolve: Resolver = async (hostname) => {
    asked.push(hostname);
    return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
  return { resolve, asked };
}

describe('addresses a provider may have', () => {
  it.each([
    ['93.184.216.34', true],
    ['2606:2800:220:1:248:1893:25c8:1946', true],
    ['10.1.2.3', false],
    ['172.16.0.1', false],
    ['172.31.255.255', false],
    ['192.168.1.1', false],
    ['127.0.0.1', false],
    ['127.5.5.5', false],
    ['0.0.0.0', false],
    ['169.254.169.254', false],
    ['100.64.0.1', false],
    ['224.0.0.1', false],
    ['255.255.255.255', false],
    ['::', false],
    ['::1', false],
    ['::ffff:127.0.0.1', false],
    ['::ffff:10.0.0.1', false],
    ['fd00::1', false],
    ['fc12:3456::1', false],
    ['fe80::1', false],
    ['ff02::1', false],
    ['not an address', false],
  ])('%s is public: %s', (address, expected) => {
    expect(isPublicAddress(address)).toBe(expected);
  });
});

describe('the fetch that reaches providers', () => {
  let server: Awaited<ReturnType<typeof localServer>>;
  beforeEach(async () => {
    server = await localServer();
  });
  afterEach(async () => {
    await server.close();
  });

  it('refuses a name when any address it resolves to is not public, before connecting', async () => {
    const name = answering('93.184.216.34', '10.0.0.7');
    const fetch = providerFetch({ allowLoopback: false }, name.resolve);
    await expect(fetch('https://login.north.example/.well-known/openid-configuration', GET)).rejects.toThrow(
      ProviderAddressRefused,
    );
    expect(name.asked).toEqual(['login.north.example']);
  });

  it('refuses loopback, private and link-local hosts outside development, and never connects', async () => {
    const fetch = providerFetch({ allowLoopback: false }, answering('127.0.0.1').resolve);
    for (const url of [
      `https://localhost:${server.port}/`,
      `https://127.0.0.1:${server.port}/`,
      `https://[::ffff:127.0.0.1]:${server.port}/`,
      `https://[::1]:${server.port}/`,
      'https://169.254.169.254/latest/meta-data/',
      'https://10.0.0.1/',
      `http://127.0.0.1:${server.port}/`,
    ])
      await expect(fetch(url, GET), url).rejects.toThrow(ProviderAddressRefused);
    expect(server.connections()).toBe(0);
  });

  it('in development reaches loopback over http, and plain http nowhere else', async () => {
    const fetch = providerFetch({ allowLoopback: true }, answering('93.184.216.34').resolve);
    await expect(fetch('http://login.north.example/', GET)).rejects.toThrow(ProviderAddressRefused);
    await expect(fetch('http://93.184.216.34/', GET)).rejects.toThrow(ProviderAddressRefused);
    const answer = await fetch(`http://127.0.0.1:${server.port}/`, GET);
    expect(await answer.json()).toEqual({ ok: true });
  });

  it('connects to the address it checked: the name is resolved once, never again by the socket', async () => {
    // The name exists nowhere but in this resolver: the connection can only use the checked answer.
    const name = answering('127.0.0.1');
    const fetch = providerFetch({ allowLoopback: true }, name.resolve);
    const answer = await fetch(
      `http://provider.invalid:${server.port}/.well-known/openid-configuration`,
      GET,
    );
    expect(answer.status).toBe(200);
    expect(name.asked).toEqual(['provider.invalid']);
    expect(server.hosts).toEqual([`provider.invalid:${server.port}`]);
  });
});
