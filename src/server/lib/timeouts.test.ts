/**
 * Slow senders against a listening server over a real socket: a client that trickles its body or
 * its headers a byte at a time loses the connection instead of holding it forever. The limits
 * are shortened so the test need not wait the production ones; nothing here measures speed.
 */
import net from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/helpers/app';
import { DEFAULT_LIMITS } from '../config';

interface Outcome {
  /** What the server sent before closing. */
  response: string;
  /** Bytes the client had managed to send by then. */
  sent: number;
}

/**
 * Sends `head` then `body` one byte per tick until the server closes the connection; with
 * `headAtOnce`, the head goes in one write and only the body trickles.
 */
function trickle(
  port: number,
  head: string,
  body: string,
  tickMs: number,
  { headAtOnce = false } = {},
): Promise<Outcome> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    const bytes = Buffer.from(head + body);
    let sent = 0;
    if (headAtOnce) {
      socket.write(head);
      sent = Buffer.byteLength(head);
    }
    let response = '';
    let timer: NodeJS.Timeout | undefined;
    const next = () => {
      if (sent >= bytes.length || socket.destroyed) return;
      socket.write(bytes.subarray(sent, sent + 1));
      sent += 1;
      timer = setTimeout(next, tickMs);
    };
    socket.on('data', (chunk) => {
      response += chunk;
    });
    socket.on('close', () => {
      clearTimeout(timer);
      resolve({ response, sent });
    });
    socket.on('error', (error: NodeJS.ErrnoException) => {
      // The server may reset the connection while a byte is on its way: that is a close too.
      if (error.code !== 'ECONNRESET' && error.code !== 'EPIPE') reject(error);
    });
    socket.on('connect', next);
  });
}

describe('slow clients', () => {
  let ctx: TestContext;
  let port: number;

  beforeEach(async () => {
    ctx = await createTestApp('sqlite', {
      limits: {
        timeouts: {
          requestMs: 1_500,
          headersMs: 1_000,
          idleMs: 10_000,
          keepAliveMs: 1_000,
          checkIntervalMs: 200,
        },
      },
    });
    await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    port = (ctx.app.server.address() as net.AddressInfo).port;
  });

  afterEach(async () => ctx.close());

  it('lose the connection when the body trickles in, on anonymous endpoints too', async () => {
    const body = JSON.stringify({ email: 'someone@north.edu', password: 'x'.repeat(400) });
    for (const url of ['/api/login/', '/api/contact/']) {
      const head = `POST ${url} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`;
      // Each byte comes well inside the idle limit, so only the request limit can end this.
      const outcome = await trickle(port, head, body, 100);
      expect(outcome.sent, url).toBeLessThan(head.length + body.length);
      expect(outcome.response, url).toMatch(/^HTTP\/1\.1 408 /);
      expect(outcome.response, url).toContain('"code":"REQUEST_TIMEOUT"');
    }
  });

  it('get one answer when refused before their body has arrived, and the connection ends with it', async () => {
    const body = 'name,email\n'.repeat(40);
    const head = `POST /api/roster/ HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: text/csv\r\nContent-Length: ${body.length}\r\n\r\n`;
    const outcome = await trickle(port, head, body, 100, { headAtOnce: true });
    expect(outcome.sent).toBeLessThan(head.length + body.length);
    // Refused at once (nobody is signed in), and nothing after it: no 408 once the limit has passed.
    expect(outcome.response).toMatch(/^HTTP\/1\.1 40[13] /);
    expect(outcome.response.match(/HTTP\/1\.1 /g)).toHaveLength(1);
    expect(outcome.response).toMatch(/connection: close/i);
  });

  it('lose the connection when the headers trickle in', async () => {
    const head = `GET /api/csrf/ HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Padding: ${'a'.repeat(400)}\r\n\r\n`;
    const outcome = await trickle(port, head, '', 100);
    expect(outcome.sent).toBeLessThan(head.length);
    expect(outcome.response).toMatch(/^HTTP\/1\.1 408 /);
    expect(outcome.response).toContain('"code":"REQUEST_TIMEOUT"');
  });
});

describe('timeouts in production', () => {
  it('are all set, the request limit long enough for the largest body on a slow connection', () => {
    const { timeouts } = DEFAULT_LIMITS;
    expect(timeouts).toEqual({
      requestMs: 30_000,
      headersMs: 10_000,
      idleMs: 60_000,
      keepAliveMs: 5_000,
      checkIntervalMs: 2_000,
    });
  });
});
