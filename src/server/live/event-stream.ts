import { PassThrough } from 'node:stream';

interface EventStreamOptions {
  /** A comment line this often keeps proxies and browsers from timing the connection out. */
  heartbeatMs: number;
  /** How long the browser waits before reconnecting after a drop. */
  retryMs: number;
  /** Asked before each heartbeat; false ends the stream (e.g. the session has ended). */
  stillWanted?: () => Promise<boolean>;
}

/** One Server-Sent Events response body: named events, heartbeats, and a single way to end. */
export class EventStream {
  readonly body = new PassThrough();
  private readonly heartbeat: NodeJS.Timeout;
  private readonly closeHandlers: (() => void)[] = [];
  private closed = false;

  constructor(private readonly options: EventStreamOptions) {
    // Written at once so the headers go out and the browser's EventSource opens immediately.
    this.body.write(`retry: ${options.retryMs}\n: connected\n\n`);
    this.heartbeat = setInterval(() => void this.beat(), options.heartbeatMs);
    this.body.once('close', () => this.close());
  }

  get isClosed(): boolean {
    return this.closed;
  }

  send(event: string, data: unknown): void {
    if (this.closed) return;
    // JSON never contains a raw newline, so the payload is always a single data line.
    this.body.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  }

  onClose(handler: () => void): void {
    if (this.closed) handler();
    else this.closeHandlers.push(handler);
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.heartbeat);
    this.body.end();
    for (const handler of this.closeHandlers.splice(0)) handler();
  }

  private async beat() {
    const wanted = (await this.options.stillWanted?.().catch(() => false)) ?? true;
    if (!wanted) this.close();
    else if (!this.closed) this.body.write(': heartbeat\n\n');
  }
}
