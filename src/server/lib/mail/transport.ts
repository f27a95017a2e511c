import nodemailer from 'nodemailer';
import type { MailConfig } from '../../config';
import type { OutgoingMail } from './outbox';

/** Hands one mail over for delivery; throws when it could not. */
export interface MailTransport {
  send(mail: OutgoingMail): Promise<void>;
  close(): void;
}

/** Where mail goes when no SMTP server is configured: a line the operator can read. */
export type MailLog = (fields: Record<string, unknown>, message: string) => void;

/** An attempt must end well inside the outbox lease, or another instance could send the mail too. */
const SMTP_TIMEOUT_MS = 30_000;

/**
 * SMTP through nodemailer when `SMTP_URL` is set. Without it (the embedded default) every mail is
 * written to the server log in full, so a newcomer can read a sign-in code without a mail server.
 */
export function createMailTransport(config: MailConfig, log: MailLog): MailTransport {
  if (!config.smtpUrl) {
    return {
      async send(mail) {
        log(
          { mail: { to: mail.to, subject: mail.subject, text: mail.text } },
          `Mail to ${mail.to} (SMTP_URL is not set, so it is logged instead of sent): ${mail.subject}\n${mail.text}`,
        );
      },
      close() {},
    };
  }
  const transporter = nodemailer.createTransport({
    url: config.smtpUrl,
    pool: true,
    // A batch of due mail is shared among the pooled connections (MailConfig.smtpConnections).
    maxConnections: config.smtpConnections,
    connectionTimeout: SMTP_TIMEOUT_MS,
    greetingTimeout: SMTP_TIMEOUT_MS,
    socketTimeout: SMTP_TIMEOUT_MS,
  });
  return {
    async send(mail) {
      await transporter.sendMail({ from: config.from, to: mail.to, subject: mail.subject, text: mail.text });
    },
    close: () => transporter.close(),
  };
}
