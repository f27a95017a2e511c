import type { MailConfig } from '../../config';
import { startModuleThread } from '../threads';
import type { OutgoingMail } from './outbox';
import type { SmtpSettings } from './smtp';
import type { SmtpThreadReply, SmtpThreadRequest } from './smtp-thread';

/** Hands one mail over for delivery; throws when it could not. */
export interface MailTransport {
  /** `messageKey`: the same for every attempt at one mail (see `messageKey` in the outbox). */
  send(mail: OutgoingMail, messageKey?: string): Promise<void>;
  /** Ends the connections at once; mails still being sent fail (the outbox still holds them). */
  close(): void;
}

/** Where mail goes when no SMTP server is configured: a line the operator can read. */
type MailLog = (fields: Record<string, unknown>, message: string) => void;

/**
 * SMTP when `SMTP_URL` is set. Without it (the embedded default) every mail is written to the
 * server log in full, so a newcomer can read a sign-in code without a mail server.
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
  return threadedSmtpTransport({
    smtpUrl: config.smtpUrl,
    smtpConnections: config.smtpConnections,
    from: config.from,
  });
}

/** The thread's module beside this one: TypeScript under the tests, the compiled build's JavaScript otherwise. */
// The path, not the whole URL: a TypeScript loader may add a query to it.
const THREAD_ENTRY = new URL(
  new URL(import.meta.url).pathname.endsWith('.ts') ? './smtp-thread.ts' : './smtp-thread.js',
  import.meta.url,
).href;

/**
 * SMTP from a thread of its own, started at the first mail. Composing and writing each mail
 * (nodemailer's MIME and socket streams) took about 8% of the request thread's time while alerts
 * went out under submission load (a CPU profile of the alerts benchmark), and each alert waited
 * for a busy event loop; on their own thread they neither slow submissions nor wait for them.
 * A thread that dies fails the mails it held (the outbox retries them); the next mail starts
 * another.
 */
function threadedSmtpTransport(settings: SmtpSettings): MailTransport {
  let thread: MailTransport | null = null;
  return {
    send(mail, messageKey) {
      if (!thread) {
        const started = startSmtpThread(settings, () => {
          if (thread === started) thread = null;
        });
        thread = started;
      }
      return thread.send(mail, messageKey);
    },
    close() {
      thread?.close();
      thread = null;
    },
  };
}

/** One SMTP thread and the mails it holds; `onEnd` is told when the thread has ended. */
function startSmtpThread(settings: SmtpSettings, onEnd: () => void): MailTransport {
  const worker = startModuleThread(THREAD_ENTRY, settings);
  const pending = new Map<number, { resolve: () => void; reject: (error: Error) => void }>();
  let nextId = 0;
  const failAll = (error: Error) => {
    for (const waiter of pending.values()) waiter.reject(error);
    pending.clear();
  };
  worker.on('message', (reply: SmtpThreadReply) => {
    const waiter = pending.get(reply.id);
    pending.delete(reply.id);
    if (reply.error === undefined) waiter?.resolve();
    else waiter?.reject(new Error(reply.error));
  });
  worker.on('error', failAll);
  worker.on('exit', (code) => {
    failAll(new Error(`the mail thread ended (exit code ${code})`));
    onEnd();
  });
  return {
    send(mail, messageKey) {
      const id = nextId++;
      const sent = new Promise<void>((resolve, reject) => pending.set(id, { resolve, reject }));
      worker.postMessage({ id, mail, ...(messageKey ? { messageKey } : {}) } satisfies SmtpThreadRequest);
      return sent;
    },
    // A relay that hangs must not hold a stopping instance: the thread ends with its connections.
    close: () => void worker.terminate(),
  };
}
