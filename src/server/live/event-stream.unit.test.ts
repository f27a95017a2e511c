import { once } from 'node:events';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { EventStream } from './event-stream';

function collect(stream: EventStream) {
  let text = '';
  stream.body.setEncoding('utf8');
  stream.body.on('data', (chunk: string) => {
    text += chunk;
  });
  return () => text;
}

describe('event stream', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('opens with a retry hint, sends named single-line events and heartbeats', async () => {
    const stream = new EventStream({ heartbeatMs: 20, retryMs: 3000 });
    const text = collect(stream);
    stream.send('dashboard', { note: 'two\nlines' });
    await vi.advanceTimersByTimeAsync(70);
    stream.close();
    expect(text().startsWith('retry: 3000\n: connected\n\n')).toBe(true);
    expect(text()).toContain('event: dashboard\ndata: {"note":"two\\nlines"}\n\n');
    expect(text()).toContain(': heartbeat\n\n');
  });

  it('ends when its owner no longer wants it, and runs close handlers once', async () => {
    let wanted = true;
    const stream = new EventStream({ heartbeatMs: 10, retryMs: 1000, stillWanted: async () => wanted });
    collect(stream);
    let closed = 0;
    stream.onClose(() => {
      closed += 1;
    });
    await vi.advanceTimersByTimeAsync(30);
    expect(stream.isClosed).toBe(false);
    wanted = false;
    await vi.advanceTimersByTimeAsync(40);
    expect(stream.isClosed).toBe(true);
    stream.close();
    stream.send('dashboard', {});
    expect(closed).toBe(1);
  });

  it('closes itself when the response body is destroyed (client gone)', async () => {
    const stream = new EventStream({ heartbeatMs: 1000, retryMs: 1000 });
    let closed = false;
    stream.onClose(() => {
      closed = true;
    });
    // The stream's own close listener was added first, so it has run once this one hears the event.
    const bodyClosed = once(stream.body, 'close');
    stream.body.destroy();
    await bodyClosed;
    expect(closed).toBe(true);
  });
});
