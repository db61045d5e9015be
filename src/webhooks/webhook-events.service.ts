import { Injectable } from '@nestjs/common';
import { pageEnvelope } from '../common/paging';
import { isUuid } from '../common/uuid';
import { NotFoundError } from '../common/problem/problem.errors';
import { WebhookQueue } from '../queue/webhook-queue';
import { ListWebhookEventsQuery, WebhookEventPageResponse, WebhookEventResponse } from './dto/webhook-event.dto';
import {
  eventIdOf,
  eventTypeOf,
  WebhookAttemptRow,
  WebhookEventRow,
  WebhookEventsRepository,
} from './webhook-events.repository';
import { Database } from '../database/database';

/** The delivery log of a user's webhook events, and replays. */
@Injectable()
export class WebhookEventsService {
  constructor(
    private readonly database: Database,
    private readonly events: WebhookEventsRepository,
    private readonly webhooks: WebhookQueue,
  ) {}

  async list(userId: string, query: ListWebhookEventsQuery): Promise<WebhookEventPageResponse> {
    const { messageId, endpointId, type } = query;
    const filter = { messageId, endpointId, type };
    const envelope = pageEnvelope(query, await this.events.count(userId, filter));
    const rows =
      envelope.skip < envelope.total ? await this.events.list(userId, filter, envelope.skip, query.take) : [];
    return {
      deliveries: rows.map((row) => mapEvent(row, row.attempt_log)),
      ...envelope,
      messageId: messageId ?? null,
    };
  }

  /**
   * Sends the event again, with the same `webhook-id`: one more attempt for a delivered, failed or
   * gone event; nothing new for a pending one, whose next attempt is already on the queue.
   */
  async replay(userId: string, id: string): Promise<{ id: string; state: 'pending' }> {
    const replayed =
      isUuid(id) &&
      (await this.database.transaction(async (manager) => {
        const marked = await this.events.markForReplay(manager, userId, id);
        if (marked === 'queued') await this.webhooks.enqueue(manager, [id]);
        return marked !== 'missing';
      }));
    // The API's name for an event: its routes are /user/webhook-deliveries.
    if (!replayed) throw new NotFoundError(isUuid(id) ? `Webhook delivery ${id}` : 'That webhook delivery');
    return { id, state: 'pending' };
  }
}

function mapEvent(row: WebhookEventRow, attempts: WebhookAttemptRow[]): WebhookEventResponse {
  return {
    id: row.id,
    eventId: eventIdOf(row),
    endpointId: row.endpoint_id,
    messageId: row.message_id,
    type: eventTypeOf(row),
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
