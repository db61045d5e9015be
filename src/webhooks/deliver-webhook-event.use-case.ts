import { Injectable } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { historyAsOf, mapMessage } from '../messages/message.mapper';
import { MessagesRepository } from '../messages/messages.repository';
import { QueueJob } from '../queue/job-queue';
import { WebhookJob, WebhookQueue } from '../queue/webhook-queue';
import { DeliverableWebhookEvent, WebhookEventsRepository } from './webhook-events.repository';
import { logWebhookOutcome } from './webhook-outcome-log';
import { WebhookPoster } from './webhook-poster';
import { webhookRetryPolicy } from './webhook-retry-policy';
import { WebhookSigner } from './webhook-signer';
import { Database } from '../database/database';

/**
 * One attempt at one webhook event (SPEC §7): a signed POST, logged with its outcome; a 2xx is
 * success, a 410 stops, anything else is retried on WEBHOOK_RETRY_DELAYS with the same `webhook-id`.
 */
@Injectable()
export class DeliverWebhookEventUseCase {
  constructor(
    private readonly database: Database,
    private readonly config: AppConfig,
    private readonly webhooks: WebhookQueue,
    private readonly events: WebhookEventsRepository,
    private readonly messages: MessagesRepository,
    private readonly signer: WebhookSigner,
    private readonly poster: WebhookPoster,
  ) {}

  /** Resolves once the attempt is recorded with its job's completion. */
  async execute(job: QueueJob<WebhookJob>): Promise<void> {
    const event = await this.events.getForDelivery(job.data.eventId);
    // Delivered, given up or gone since this job was queued (a replay makes it pending again).
    if (!event || event.state !== 'pending') return this.completeWithNothingToDo(job);
    const body = await this.payload(event);
    if (body === undefined) return this.completeWithNothingToDo(job);
    const attemptedAt = new Date();
    const timestamp = Math.floor(attemptedAt.getTime() / 1000);
    const response = await this.poster.post(
      event.url,
      {
        'webhook-id': event.id,
        'webhook-timestamp': String(timestamp),
        'webhook-signature': this.signer.sign(event.user_id, event.id, timestamp, body),
      },
      body,
    );
    const { state, retryAfterSeconds } = webhookRetryPolicy(
      response.statusCode,
      event.attempts,
      this.config.webhooks.retryDelays,
    );
    const retrying = retryAfterSeconds !== undefined;
    const nextAttemptAt = retrying ? new Date(Date.now() + retryAfterSeconds * 1000) : null;
    // The attempt, the next one and this job's completion commit together (pg-boss would
    // complete the job later, on its own, and a crash in between would send the event twice).
    await this.database.transaction(async (manager) => {
      await this.events.recordAttempt(manager, event.id, { attemptedAt, ...response }, state, nextAttemptAt);
      if (retrying) await this.webhooks.enqueue(manager, [event.id], retryAfterSeconds);
      await this.webhooks.complete(manager, [job.id]);
    });
    logWebhookOutcome(event, response, state, nextAttemptAt);
  }

  /** Left active, the job would come back after its lease, again and again, to do nothing. */
  private async completeWithNothingToDo(job: QueueJob<WebhookJob>): Promise<void> {
    await this.database.transaction((manager) => this.webhooks.complete(manager, [job.id]));
  }

  /**
   * The event's body: the message as it stood at this status change (its first `sequence`
   * history entries, its recipients then), the same on every attempt.
   */
  private async payload(event: DeliverableWebhookEvent): Promise<string | undefined> {
    const row = await this.messages.getById(event.user_id, event.message_id);
    if (!row) return undefined;
    const history = historyAsOf(
      (await this.messages.getStatusHistories(event.user_id, [row.id])).get(row.id)!,
      event.sequence,
    );
    const recipientFates = event.recipient_fates ?? row.recipient_fates;
    const message = mapMessage({ ...row, status: event.status, recipient_fates: recipientFates }, history);
    return JSON.stringify({
      type: `message.${event.status}`,
      timestamp: event.created_at.toISOString(),
      data: { message, sequence: event.sequence },
    });
  }
}
