// The SMTP thread: sends the mails the server's thread hands it (see threadedSmtpTransport).
import { parentPort, workerData } from 'node:worker_threads';
import type { OutgoingMail } from './outbox';
import { type SmtpSettings, smtpSender } from './smtp';

/** A mail to send (see MailTransport.send). */
export interface SmtpThreadRequest {
  id: number;
  mail: OutgoingMail;
  messageKey?: string;
}
/** The outcome of one mail: sent, or the reason it was not. */
export interface SmtpThreadReply {
  id: number;
  error?: string;
}

const port = parentPort;
if (port) {
  const sender = smtpSender(workerData as SmtpSettings);
  port.on('message', (request: SmtpThreadRequest) => {
    sender.send(request.mail, request.messageKey).then(
      () => port.postMessage({ id: request.id } satisfies SmtpThreadReply),
      (error: unknown) =>
        port.postMessage({
          id: request.id,
          error: error instanceof Error ? error.message : String(error),
        } satisfies SmtpThreadReply),
    );
  });
}
