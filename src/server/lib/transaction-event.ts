import type { Executor } from '../db/executor';
import type { CommitHooks } from '../db/transaction-runner';

/**
 * Acts on an event inside the transaction that announced it: what it writes is kept with the
 * event's own writes or not at all, and its commit hooks run with that transaction's.
 */
export type TransactionSubscriber<Event> = (
  trx: Executor,
  hooks: CommitHooks,
  event: Event,
) => void | Promise<void>;

/**
 * Something a feature announces from inside a write transaction, for other features to act on
 * without the announcing feature knowing them. The app subscribes them at start (app.ts); each
 * runs in the order it was subscribed, one after the other, and a subscriber's failure fails the
 * transaction as the announcing feature's own would.
 */
export class TransactionEvent<Event> {
  readonly #subscribers: TransactionSubscriber<Event>[] = [];

  subscribe(subscriber: TransactionSubscriber<Event>): this {
    this.#subscribers.push(subscriber);
    return this;
  }

  async announce(trx: Executor, hooks: CommitHooks, event: Event): Promise<void> {
    for (const subscriber of this.#subscribers) await subscriber(trx, hooks, event);
  }
}
