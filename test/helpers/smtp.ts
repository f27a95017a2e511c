import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  to: string[];
  from: string;
  subject: string;
  text: string;
}

/** Quoted-printable, as nodemailer may encode a text body: soft line breaks and =XX escapes. */
function decodeQuotedPrintable(text: string): string {
  return text
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_match, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
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
    subject: header('Subject'),
    text: (quoted ? decodeQuotedPrintable(body) : body).replace(/\r\n/g, '\n').trimEnd(),
  };
}

/** A real SMTP server on a free loopback port that keeps every mail it receives. */
export async function startSmtpListener(options: { onMail?: (mail: ReceivedMail) => void } = {}) {
  const received: ReceivedMail[] = [];
  const waiters: (() => void)[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    // Loopback only: a reverse DNS lookup of each client would only delay the greeting.
    disableReverseLookup: true,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const to = session.envelope.rcptTo.map((address) => address.address);
        const mail = parse(Buffer.concat(chunks).toString('utf8'), to);
        received.push(mail);
        options.onMail?.(mail);
        for (const wake of waiters.splice(0)) wake();
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
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
