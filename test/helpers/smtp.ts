import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  to: string[];
  from: string;
  subject: string;
  messageId: string;
  text: string;
}

/** Quoted-printable, as nodemailer may encode a text body: soft line breaks and =XX escapes of UTF-8 bytes. */
function decodeQuotedPrintable(text: string): string {
  return Buffer.from(
    text
      .replace(/=\r?\n/g, '')
      .replace(/=([0-9A-F]{2})/g, (_match, hex: string) => String.fromCharCode(Number.parseInt(hex, 16))),
    'latin1',
  ).toString('utf8');
}

/**
 * A header as its reader sees it: words outside ASCII come encoded (RFC 2047,
 * "=?UTF-8?Q?Tu_c=C3=B3digo?="), and encoded words next to each other join without a space.
 */
function decodeHeader(value: string): string {
  return value
    .replace(/(\?=)\s+(?==\?)/g, '$1')
    .replace(/=\?UTF-8\?([QB])\?([^?]*)\?=/gi, (_match, encoding: string, text: string) =>
      encoding.toUpperCase() === 'B'
        ? Buffer.from(text, 'base64').toString('utf8')
        : decodeQuotedPrintable(text.replace(/_/g, ' ')),
    );
}

function parse(raw: string, to: string[]): ReceivedMail {
  const split = raw.indexOf('\r\n\r\n');
  const head = raw.slice(0, split).replace(/\r\n[ \t]+/g, ' ');
  const body = raw.slice(split + 4);
  const header = (name: string) => new RegExp(`^${name}: (.*)$`, 'im').exec(head)?.[1]?.trim() ?? '';
  const quoted = /quoted-printable/i.test(header('Content-Transfer-Encoding'));
  return {
    to,
    from: header('From'),
    subject: decodeHeader(header('Subject')),
    messageId: header('Message-ID'),
    text: (quoted ? decodeQuotedPrintable(body) : body).replace(/\r\n/g, '\n').trimEnd(),
  };
}

/**
 * A real SMTP server on a free loopback port that keeps every mail it accepts. Told to `hang()`,
 * it reads each further mail and never answers it, as a stuck relay does: the mail is neither
 * accepted nor refused, and is never delivered. `resume()` answers the mails that come after it.
 */
export async function startSmtpListener(options: { onMail?: (mail: ReceivedMail) => void } = {}) {
  const received: ReceivedMail[] = [];
  const waiters: (() => void)[] = [];
  let hanging = false;
  let held = 0;
  const wakeAll = () => {
    for (const wake of waiters.splice(0)) wake();
  };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    // Held mails never get an answer: close their connections at once rather than after 30 s.
    closeTimeout: 100,
    // Loopback only: a reverse DNS lookup of each client would only delay the greeting.
    disableReverseLookup: true,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const to = session.envelope.rcptTo.map((address) => address.address);
        const mail = parse(Buffer.concat(chunks).toString('utf8'), to);
        const accept = () => {
          received.push(mail);
          options.onMail?.(mail);
          callback();
          wakeAll();
        };
        if (!hanging) return accept();
        held += 1;
        wakeAll();
      });
    },
  });
  // A sender that dies mid-conversation (a killed server process) resets its connection.
  server.on('error', () => undefined);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  const waitUntil = async (check: () => boolean) => {
    while (!check()) await new Promise<void>((resolve) => waiters.push(resolve));
  };
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    /** Mails read and left unanswered since `hang()`. */
    get held() {
      return held;
    },
    hang() {
      hanging = true;
    },
    resume() {
      hanging = false;
    },
    /** Resolves once `check` holds, looked at again as each mail arrives (no polling). */
    until: (check: () => boolean) => waitUntil(check),
    /** Resolves once `count` mails have been accepted in all. */
    waitForReceived: (count: number) => waitUntil(() => received.length >= count),
    /** Resolves once `count` mails are held unanswered. */
    waitForHeld: (count: number) => waitUntil(() => held >= count),
    /** Resolves with the first mail to `address` once it has arrived. */
    async mailTo(address: string): Promise<ReceivedMail> {
      for (;;) {
        const mail = received.find((candidate) => candidate.to.includes(address));
        if (mail) return mail;
        await new Promise<void>((resolve) => waiters.push(resolve));
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
