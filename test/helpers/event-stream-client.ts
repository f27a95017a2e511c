import http from 'node:http';
import type { DashboardData } from '../../src/common/schemas/dashboard';

export interface ReceivedEvent {
  event: string;
  data: DashboardData;
}

/** A minimal EventSource over node:http: collects named events as they arrive. */
export class EventStreamClient {
  readonly events: ReceivedEvent[] = [];
  status = 0;
  headers: http.IncomingHttpHeaders = {};
  ended = false;
  private request: http.ClientRequest | null = null;
  private waiters: (() => void)[] = [];

  static async open(baseUrl: string, sessionCookie: string): Promise<EventStreamClient> {
    const client = new EventStreamClient();
    await new Promise<void>((resolve, reject) => {
      client.request = http.get(
        `${baseUrl}/api/dashboard/events/`,
        { headers: { cookie: sessionCookie } },
        (response) => {
          client.status = response.statusCode ?? 0;
          client.headers = response.headers;
          response.setEncoding('utf8');
          let buffer = '';
          response.on('data', (chunk: string) => {
            buffer += chunk;
            for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
              client.parse(buffer.slice(0, end));
              buffer = buffer.slice(end + 2);
            }
          });
          response.on('end', () => client.finish());
          response.on('close', () => client.finish());
          resolve();
        },
      );
      client.request.on('error', (error) => (client.ended ? undefined : reject(error)));
    });
    return client;
  }

  private parse(block: string) {
    let event = 'message';
    let data = '';
    for (const line of block.split('\n')) {
      if (line.startsWith('event: ')) event = line.slice(7);
      else if (line.startsWith('data: ')) data += line.slice(6);
    }
    if (data) this.events.push({ event, data: JSON.parse(data) as DashboardData });
    this.wake();
  }

  private finish() {
    this.ended = true;
    this.wake();
  }

  private wake() {
    for (const waiter of this.waiters.splice(0)) waiter();
  }

  /**
   * Resolves once `done(events)` holds, woken by each event as it arrives (no polling); rejects
   * if the stream ends first or `timeoutMs` passes, which only guards against a hang.
   */
  async waitUntil(done: (events: ReceivedEvent[]) => boolean, timeoutMs: number): Promise<ReceivedEvent[]> {
    const deadline = Date.now() + timeoutMs;
    while (!done(this.events)) {
      const left = deadline - Date.now();
      if (left <= 0 || this.ended) throw new Error(`condition not met after ${this.events.length} events`);
      await this.nextChange(left);
    }
    return this.events;
  }

  /** Resolves once `count` events have arrived, or rejects after `timeoutMs`. */
  async waitForEvents(count: number, timeoutMs: number): Promise<ReceivedEvent[]> {
    try {
      return await this.waitUntil((events) => events.length >= count, timeoutMs);
    } catch {
      throw new Error(`expected ${count} events, got ${this.events.length}`);
    }
  }

  /** Whether the server ended the stream within `timeoutMs`; woken by the end itself. */
  async waitForEnd(timeoutMs: number): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    while (!this.ended) {
      const left = deadline - Date.now();
      if (left <= 0) break;
      await this.nextChange(left);
    }
    return this.ended;
  }

  /** The next event or the end, whichever comes first; gives up after `timeoutMs`. */
  private nextChange(timeoutMs: number): Promise<void> {
    return new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, timeoutMs);
      this.waiters.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  close() {
    this.request?.destroy();
  }
}
