import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { NotFoundError } from '../common/problem/problem.errors';
import { ListWebhookDeliveriesQuery, WebhookDeliveryPageResponse, WebhookDeliveryResponse } from './dto/webhook-delivery.dto';
import { WebhookAttemptRow, WebhookDeliveriesRepository, WebhookEventRow } from './webhook-deliveries.repository';
import { WebhookQueue } from './webhook-queue';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The delivery log of a user's webhook events, and replays. */
@Injectable()
export class WebhookDeliveriesService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly events: WebhookDeliveriesRepository,
    private readonly webhooks: WebhookQueue,
  ) {}

  async list(userId: string, { take, page, messageId }: ListWebhookDeliveriesQuery): Promise<WebhookDeliveryPageResponse> {
    const skip = (page - 1) * take;
    const total = await this.events.count(userId, messageId);
    const rows = skip < total ? await this.events.list(userId, messageId, skip, take) : [];
    const totalPages = Math.ceil(total / take);
    return {
      deliveries: rows.map((row) => mapDelivery(row, row.attempt_log)),
      take,
      page,
      skip,
      total,
      totalPages,
      hasNext: page < totalPages,
      messageId: messageId ?? null,
    };
  }

  /** Sends the event again, with the same `webhook-id`, whatever became of it. */
  async replay(userId: string, id: string): Promise<{ id: string; state: 'pending' }> {
    const replayed =
      UUID.test(id) &&
      (await this.dataSource.transaction(async (manager) => {
        if (!(await this.events.markForReplay(manager, userId, id))) return false;
        await this.webhooks.enqueue(manager, [id]);
        return true;
      }));
    if (!replayed) throw new NotFoundError(UUID.test(id) ? `Webhook delivery ${id}` : 'That webhook delivery');
    return { id, state: 'pending' };
  }
}

function mapDelivery(row: WebhookEventRow, attempts: WebhookAttemptRow[]): WebhookDeliveryResponse {
  return {
    id: row.id,
    messageId: row.message_id,
    type: `message.${row.status}`,
    sequence: row.sequence,
    url: row.url,
    state: row.state,
    createdAt: row.created_at.toISOString(),
    nextAttemptAt: row.state === 'pending' ? (row.next_attempt_at?.toISOString() ?? null) : null,
    attempts: attempts.map((a) => ({
      attemptedAt: a.attempted_at.toISOString(),
      statusCode: a.status_code,
      durationMs: a.duration_ms,
      error: a.error,
    })),
  };
}
