import { Injectable } from '@nestjs/common';
import { pageEnvelope } from '../platform/paging';
import { isUuid } from '../platform/uuid';
import { NotFoundError, StateConflictError } from '../platform/problem/problem.errors';
import { WebhookQueue } from '../platform/queue/webhook-queue';
import {
  ListWebhookEventsQuery,
  WebhookDeliveryDetailsResponse,
  WebhookEventPageResponse,
  WebhookEventResponse,
} from './dto/webhook-event.dto';
import {
  eventIdOf,
  eventTypeOf,
  WebhookAttemptRow,
  WebhookEventRow,
  WebhookEventsRepository,
} from './webhook-events.repository';
import { Database } from '../platform/database/database';
import { WebhookEndpointsRepository } from './endpoints/webhook-endpoints.repository';
import { WebhookPayloads } from './webhook-payloads';

/** The delivery log of a user's webhook events, and replays. */
@Injectable()
export class WebhookEventsService {
  constructor(
    private readonly database: Database,
    private readonly events: WebhookEventsRepository,
    private readonly webhooks: WebhookQueue,
    private readonly endpoints: WebhookEndpointsRepository,
    private readonly payloads: WebhookPayloads,
  ) {}

  async list(userId: string, query: ListWebhookEventsQuery): Promise<WebhookEventPageResponse> {
    const { messageId, endpointId, type } = query;
    const filter = { messageId, endpointId, type };
    const envelope = pageEnvelope(query, await this.events.count(userId, filter));
    const rows =
      envelope.skip < envelope.total ? await this.events.list(userId, filter, envelope.skip, query.take) : [];
    return {
      deliveries: rows.map((row) => mapEvent(row, row.attemptLog)),
      ...envelope,
      messageId: messageId ?? null,
    };
  }

  /** One delivery with the body it POSTs and the first bytes of each answer; another user's, or none: 404. */
  async details(userId: string, id: string): Promise<WebhookDeliveryDetailsResponse> {
    const row = isUuid(id) ? await this.events.getForUser(userId, id) : undefined;
    // The body is the same on every attempt (WebhookPayloads); a delivery outlives no message.
    const body = row && (await this.payloads.body(row));
    if (!row || body === undefined) throw deliveryNotFound(id);
    return {
      ...mapEvent(row, row.attemptLog),
      request: { body },
      attempts: row.attemptLog.map((attempt) => ({
        ...mapAttempt(attempt),
        responseBody: attempt.responseBody ?? null,
      })),
    };
  }

  /**
   * Sends the event again, with the same `webhook-id`: one more attempt for a delivered, failed or
   * gone event; nothing new for a pending one, whose next attempt is already on the queue. An
   * event for a disabled endpoint is refused (409), as its test is: no attempt would be made.
   */
  async replay(userId: string, id: string): Promise<{ id: string; state: 'pending' }> {
    const marked = isUuid(id)
      ? await this.database.transaction(async (manager) => {
          // Share-locked until the replay commits: a disable after it waits, then the attempt skips.
          const enabled = async (endpointId: string) =>
            (await this.endpoints.lockForAttempt(manager, endpointId))?.enabled === true;
          const outcome = await this.events.markForReplay(manager, userId, id, enabled);
          if (outcome === 'queued') await this.webhooks.enqueue(manager, [id]);
          return outcome;
        })
      : 'missing';
    if (marked === 'refused')
      throw new StateConflictError(`Webhook delivery ${id} is for a disabled endpoint; enable it to replay it.`);
    if (marked === 'missing') throw deliveryNotFound(id);
    return { id, state: 'pending' };
  }
}

function mapEvent(row: WebhookEventRow, attempts: WebhookAttemptRow[]): WebhookEventResponse {
  return {
    id: row.id,
    eventId: eventIdOf(row),
    endpointId: row.endpointId,
    messageId: row.messageId,
    type: eventTypeOf(row),
    sequence: row.sequence,
    url: row.url,
    state: row.state,
    createdAt: row.createdAt.toISOString(),
    nextAttemptAt: row.state === 'pending' ? (row.nextAttemptAt?.toISOString() ?? null) : null,
    attempts: attempts.map(mapAttempt),
  };
}

function mapAttempt(a: WebhookAttemptRow): WebhookEventResponse['attempts'][number] {
  return {
    attemptedAt: a.attemptedAt.toISOString(),
    statusCode: a.statusCode,
    durationMs: a.durationMs,
    error: a.error,
  };
}

// The API's name for an event: its routes are /user/webhook-deliveries.
const deliveryNotFound = (id: string) =>
  new NotFoundError(isUuid(id) ? `Webhook delivery ${id}` : 'That webhook delivery');
