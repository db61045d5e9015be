import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { EntityManager } from 'typeorm';
import { WebhookQueue } from '../../platform/queue/webhook-queue';
import type { AccountEvent } from './event-types';
import { ACCOUNT_OUTBOX_SQL, accountOutboxEvents } from './account-outbox.sql';

/**
 * The outbox writer for account events (domains, suppressions, inbound mail, endpoint tests):
 * called with the manager of the change's own transaction, so that an event exists exactly when
 * its change committed (docs/delivery-and-deliverability.md#webhooks). Message and recipient events are written by the lifecycle's
 * statements themselves, through this context's fan-out (fan-out.sql.ts, the messages context's EventFanOut).
 */
@Injectable()
export class EventOutbox {
  constructor(private readonly webhookQueue: WebhookQueue) {}

  /** Writes the events for their subscribers and queues one delivery job each; returns the events' ids, in order. */
  async record(manager: EntityManager, events: AccountEvent[]): Promise<string[]> {
    if (events.length === 0) return [];
    const drawn = events.map((event) => ({ ...event, id: event.id ?? randomUUID() }));
    await this.queue(manager, await manager.query(ACCOUNT_OUTBOX_SQL, [accountOutboxEvents(drawn)]));
    return drawn.map((event) => event.id);
  }

  /** Queues the jobs of rows a statement's outbox CTE wrote (ids, or arrays of ids per row), in its transaction. */
  async queue(manager: EntityManager, rows: { id: string }[] | (string[] | null)[]): Promise<string[]> {
    const ids = rows.flatMap((row) => (row === null ? [] : Array.isArray(row) ? row : [row.id]));
    await this.webhookQueue.enqueue(manager, ids);
    return ids;
  }
}
