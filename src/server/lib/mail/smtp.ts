import nodemailer from 'nodemailer';
import type { MailConfig } from '../../config';
import type { OutgoingMail } from './outbox';

/** What the SMTP sender needs of the configuration; plain data, so it can cross to a thread. */
export type SmtpSettings = Pick<MailConfig, 'smtpConnections' | 'from'> & { smtpUrl: string };

/** An attempt must end well inside the outbox lease, or another instance could send the mail too. */
const SMTP_TIMEOUT_MS = 30_000;

/** `<key@domain of the From address>`: a Message-ID of our own domain, stable for the key. */
export function messageIdFor(messageKey: string, from: string): string {
  const domain = /@([^\s>]+)>?\s*$/.exec(from)?.[1] ?? 'localhost';
  return `<${messageKey}@${domain}>`;
}

/** Sends mail over pooled SMTP connections with nodemailer. */
export function smtpSender(settings: SmtpSettings) {
  const transporter = nodemailer.createTransport({
    url: settings.smtpUrl,
    pool: true,
    // A batch of due mail is shared among the pooled connections (MailConfig.smtpConnections).
    maxConnections: settings.smtpConnections,
    connectionTimeout: SMTP_TIMEOUT_MS,
    greetingTimeout: SMTP_TIMEOUT_MS,
    socketTimeout: SMTP_TIMEOUT_MS,
  });
  return {
    async send(mail: OutgoingMail, messageKey?: string): Promise<void> {
      await transporter.sendMail({
        ...(messageKey ? { messageId: messageIdFor(messageKey, settings.from) } : {}),
        from: settings.from,
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
      });
    },
    close: () => transporter.close(),
  };
}
