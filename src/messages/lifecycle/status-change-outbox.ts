import { EntityManager } from 'typeorm';

/**
 * Queues the jobs of new outbox rows (webhook events) in the transaction that wrote them, so a
 * status change and the jobs announcing it commit together. The webhooks' queue implements it;
 * it is declared here because the lifecycle may not import the layer above it.
 */
export abstract class StatusChangeOutbox {
  abstract enqueue(manager: EntityManager, eventIds: string[]): Promise<void>;
}
