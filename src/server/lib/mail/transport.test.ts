import net from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startSmtpListener } from '../../../../test/helpers/smtp';
import { loadConfig } from '../../config';
import { createMailTransport, type MailTransport } from './transport';

const smtpTransport = (smtpUrl: string) =>
  createMailTransport(
    { ...loadConfig({}).mail, smtpUrl, from: 'Wellspring <no-reply@wellspring.test>' },
    () => {
      throw new Error('SMTP is configured: nothing is logged instead of sent');
    },
  );

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('SMTP transport', () => {
  let smtp: Awaited<ReturnType<typeof startSmtpListener>>;
  let transport: MailTransport | null = null;

  beforeEach(async () => {
    smtp = await startSmtpListener();
  });
  afterEach(async () => {
    transport?.close();
    transport = null;
    await smtp.close();
  });

  it('settles each mail sent side by side with its own outcome', async () => {
    transport = smtpTransport(smtp.url);
    const mails = [1, 2, 3, 4, 5, 6].map((n) => ({
      // nodemailer refuses a mail without a recipient before any connection is made.
      to: n === 4 ? '' : `duty${n}@north.edu`,
      subject: `Alert ${n}`,
      text: `Case ${n}`,
    }));
    const outcomes = await Promise.allSettled(mails.map((mail) => (transport as MailTransport).send(mail)));
    expect(outcomes.map((outcome) => outcome.status)).toEqual([
      'fulfilled',
      'fulfilled',
      'fulfilled',
      'rejected',
      'fulfilled',
      'fulfilled',
    ]);
    expect(String((outcomes[3] as PromiseRejectedResult).reason)).toMatch(/recipients/i);
    expect(smtp.received.map((mail) => mail.subject).sort()).toEqual([
      'Alert 1',
      'Alert 2',
      'Alert 3',
      'Alert 5',
      'Alert 6',
    ]);
    expect(smtp.received.find((mail) => mail.subject === 'Alert 5')).toMatchObject({
      to: ['duty5@north.edu'],
      text: 'Case 5',
    });
  });

  it('fails a mail with the reason when the SMTP server cannot be reached', async () => {
    transport = smtpTransport(`smtp://127.0.0.1:${await closedPort()}`);
    await expect(transport.send({ to: 'duty@north.edu', subject: 'Alert', text: 'Case' })).rejects.toThrow(
      /ECONNREFUSED/,
    );
  });

  it('sends again after being closed', async () => {
    transport = smtpTransport(smtp.url);
    await transport.send({ to: 'duty@north.edu', subject: 'Before', text: 'One' });
    transport.close();
    await transport.send({ to: 'duty@north.edu', subject: 'After', text: 'Two' });
    expect(smtp.received.map((mail) => mail.subject)).toEqual(['Before', 'After']);
  });
});
