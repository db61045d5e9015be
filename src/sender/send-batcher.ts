import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { DeliveryQueue } from '../queue/delivery-queue';
import { MessageResponse } from '../messages/dto/message.response';
import { mapMessage } from '../messages/message.mapper';
import { MessageRow, MessagesRepository, NewMessage } from '../messages/messages.repository';
import { Metrics } from '../metrics/metrics';
import { WebhookQueue } from '../queue/webhook-queue';

// Enough to share a commit among every send in flight; a few writers keep the database busy.
const MAX_BATCH = 100;
const MAX_WRITERS = 4;

interface Waiting {
  message: NewMessage;
  resolve(message: MessageResponse): void;
  reject(error: unknown): void;
}

/**
 * Stores accepted messages with their delivery jobs. Sends that arrive while a transaction is
 * being written wait for the next one and share it (group commit): a message costs a share of
 * a few statements and one fsync instead of a transaction of its own, and no send waits longer
 * than one transaction for company. Each message still commits with its own job.
 */
@Injectable()
export class SendBatcher {
  private readonly waiting: Waiting[] = [];
  private writers = 0;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly messages: MessagesRepository,
    private readonly deliveries: DeliveryQueue,
    private readonly webhooks: WebhookQueue,
    private readonly metrics: Metrics,
  ) {}

  store(message: NewMessage): Promise<MessageResponse> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ message, resolve, reject });
      if (this.writers < MAX_WRITERS) void this.write();
    });
  }

  /** Stores messages in the caller's transaction: for sends that need one of their own. */
  async storeIn(manager: EntityManager, messages: NewMessage[]): Promise<MessageRow[]> {
    const { rows, webhookEventIds } = await this.messages.create(messages, manager);
    await this.deliveries.enqueue(manager, messages.map((m) => ({ job: { messageId: m.id, attempt: 1 }, priority: m.priority })));
    await this.webhooks.enqueue(manager, webhookEventIds);
    return rows;
  }

  /** Call once a transaction of storeIn() has committed. */
  committed(count: number): void {
    this.deliveries.notifyCommitted();
    this.metrics.messagesAccepted.inc(count);
  }

  private async write(): Promise<void> {
    this.writers++;
    try {
      while (this.waiting.length > 0) {
        const batch = this.waiting.splice(0, MAX_BATCH);
        try {
          const rows = await this.dataSource.transaction((manager) => this.storeIn(manager, batch.map((w) => w.message)));
          this.committed(rows.length);
          batch.forEach((w, i) => w.resolve(mapMessage(rows[i])));
        } catch (error) {
          for (const w of batch) w.reject(error);
        }
      }
    } finally {
      this.writers--;
    }
  }
}
