import { Injectable } from '@nestjs/common';
import { historyAsOf, mapMessage } from '../messages';
import { MessagesRepository } from '../messages';
import type { DeliverableWebhookEvent } from './webhook-events.repository';
import { eventIdOf, eventTypeOf } from './webhook-events.repository';

/**
 * The body of an event (docs/delivery-and-deliverability.md#webhooks, docs/delivery-and-deliverability.md#webhooks), the same on every attempt and for every target: message and
 * recipient events show the message as it stood at the change (its first `sequence` history
 * entries, its recipients then); account events carry the `data` written with their change.
 */
@Injectable()
export class WebhookPayloads {
  constructor(private readonly messages: MessagesRepository) {}

  /** Undefined when the event's message is gone (retention). */
  async body(event: DeliverableWebhookEvent): Promise<string | undefined> {
    const type = eventTypeOf(event);
    const timestamp = event.createdAt.toISOString();
    const data = event.messageId === null ? event.data : await this.messageData(event);
    if (data === undefined) return undefined;
    // The same for a message's own webhook and every endpoint (docs/delivery-and-deliverability.md#webhooks): the id is the event's.
    return JSON.stringify({ id: eventIdOf(event), type, timestamp, data });
  }

  private async messageData(event: DeliverableWebhookEvent): Promise<object | undefined> {
    const row = await this.messages.getById(event.userId, event.messageId!);
    if (!row) return undefined;
    const sequence = event.sequence!;
    const fullHistory = (await this.messages.getStatusHistories(event.userId, [row.id])).get(row.id)!;
    const history = historyAsOf(fullHistory, sequence);
    const recipientFates = event.recipientFates ?? row.recipientFates;
    // The next attempt the row holds is this change's only while no later change happened.
    const changedSince = fullHistory.filter((entry) => !entry.note).length > sequence;
    const message = mapMessage(
      {
        ...row,
        status: event.status!,
        recipientFates,
        nextAttemptAt: changedSince ? null : row.nextAttemptAt,
      },
      history,
    );
    const position = (event.data as { position?: number } | null)?.position;
    return position === undefined ? { message, sequence } : { message, recipient: message.recipients[position] };
  }
}
