import { Injectable } from '@nestjs/common';
import { Clock } from '../platform/clock';
import { AppConfig } from '../platform/config/app-config';
import { Database } from '../platform/database/database';
import { QueueJob } from '../platform/queue/job-queue';
import { WebhookJob, WebhookQueue } from '../platform/queue/webhook-queue';
import { signingSecrets } from './endpoints/endpoint-secrets';
import { WebhookEndpointsRepository } from './endpoints/webhook-endpoints.repository';
import { DeliverableWebhookEvent, eventIdOf, WebhookEventsRepository } from './webhook-events.repository';
import { logWebhookOutcome } from './webhook-outcome-log';
import { WebhookPayloads } from './webhook-payloads';
import { WebhookPoster, WebhookResponse } from './webhook-poster';
import { webhookRetryPolicy } from './webhook-retry-policy';
import { WebhookSigner } from './webhook-signer';

/**
 * One attempt at one delivery of an event (docs/delivery-and-deliverability.md#webhooks, docs/delivery-and-deliverability.md#webhooks): a signed POST, logged with its outcome;
 * a 2xx is success, a 410 stops, anything else is retried on WEBHOOK_RETRY_DELAYS with the same
 * `webhook-id` (the event's, for every target). A delivery to an endpoint starts only while the
 * endpoint exists and is enabled, and its outcome counts toward disabling a failing endpoint.
 */
@Injectable()
export class DeliverWebhookEventUseCase {
  constructor(
    private readonly database: Database,
    private readonly config: AppConfig,
    private readonly clock: Clock,
    private readonly webhooks: WebhookQueue,
    private readonly events: WebhookEventsRepository,
    private readonly endpoints: WebhookEndpointsRepository,
    private readonly payloads: WebhookPayloads,
    private readonly signer: WebhookSigner,
    private readonly poster: WebhookPoster,
  ) {}

  /** Resolves once the attempt is recorded with its job's completion. */
  async execute(job: QueueJob<WebhookJob>): Promise<void> {
    const event = await this.events.getForDelivery(job.data.eventId);
    // Delivered, given up or gone since this job was queued (a replay makes it pending again).
    if (!event || event.state !== 'pending') return this.completeWithNothingToDo(job);
    const body = await this.payloads.body(event);
    if (body === undefined) return this.completeWithNothingToDo(job);
    const attemptedAt = this.clock.now();
    const timestamp = Math.floor(attemptedAt.getTime() / 1000);
    const id = eventIdOf(event);
    const headers = (signature: string) => ({
      'webhook-id': id,
      'webhook-timestamp': String(timestamp),
      'webhook-signature': signature,
    });
    if (event.endpointId === null) {
      const signature = this.signer.sign(event.userId, id, timestamp, body);
      const response = await this.poster.post(event.url, headers(signature), body);
      return this.record(job, event, attemptedAt, response);
    }
    // The attempt starts inside the transaction that share-locks its endpoint: a delete or a
    // disable committed before finds nothing to send; one after waits until the POST has begun.
    const started = await this.database.transaction(async (manager) => {
      const endpoint = await this.endpoints.lockForAttempt(manager, event.endpointId!);
      if (!endpoint?.enabled) {
        if (endpoint) await this.events.skip(manager, event.id);
        await this.webhooks.complete(manager, [job.id]);
        return undefined;
      }
      const signature = this.signer.signWith(signingSecrets(endpoint, attemptedAt), id, timestamp, body);
      return { response: this.poster.post(endpoint.url, headers(signature), body) };
    });
    if (started) await this.record(job, event, attemptedAt, await started.response);
  }

  /**
   * The attempt, the next one and this job's completion commit together (pg-boss would complete
   * the job later, on its own, and a crash in between would send the event twice).
   */
  private async record(
    job: QueueJob<WebhookJob>,
    event: DeliverableWebhookEvent,
    attemptedAt: Date,
    response: WebhookResponse,
  ): Promise<void> {
    const policy = webhookRetryPolicy(response.statusCode, event.attempts, this.config.webhooks.retryDelays);
    let { state, retryAfterSeconds } = policy;
    let nextAttemptAt: Date | null = null;
    await this.database.transaction(async (manager) => {
      if (event.endpointId !== null && state === 'delivered') {
        await this.endpoints.recordSuccess(manager, event.endpointId);
      } else if (event.endpointId !== null) {
        const stillEnabled = await this.endpoints.recordFailure(
          manager,
          event.endpointId,
          attemptedAt,
          this.config.webhooks.disableAfterSeconds,
        );
        // A disabled endpoint is sent nothing more: its retries end here.
        if (!stillEnabled && retryAfterSeconds !== undefined) [state, retryAfterSeconds] = ['failed', undefined];
      }
      nextAttemptAt = await this.events.recordAttempt(
        manager,
        event.id,
        { attemptedAt, ...response },
        state,
        retryAfterSeconds ?? null,
      );
      // At the moment the event shows: a delay would count from the transaction's start, before it.
      if (nextAttemptAt) await this.webhooks.enqueue(manager, [event.id], nextAttemptAt);
      await this.webhooks.complete(manager, [job.id]);
    });
    logWebhookOutcome(event, response, state, nextAttemptAt);
  }

  /** Left active, the job would come back after its lease, again and again, to do nothing. */
  private async completeWithNothingToDo(job: QueueJob<WebhookJob>): Promise<void> {
    await this.database.transaction((manager) => this.webhooks.complete(manager, [job.id]));
  }
}
