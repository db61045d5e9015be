import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { lookup as contentTypeOf } from 'mime-types';
import { DataSource } from 'typeorm';
import { v7 as uuidv7 } from 'uuid';
import { InvalidInputError, PayloadTooLargeError } from '../common/problem/problem.errors';
import { AppConfig } from '../config/app-config';
import { DeliveryQueue } from '../delivery/delivery-queue';
import { Metrics } from '../metrics/metrics';
import { WebhookQueue } from '../webhooks/webhook-queue';
import { isPublicAddress, literalAddress } from '../webhooks/webhook-target';
import { MessageResponse } from '../messages/dto/message.response';
import { MessagesRepository, NewMessage } from '../messages/messages.repository';
import { mapMessage } from '../messages/message.mapper';
import { addressKey, senderIdFor } from '../messages/addresses';
import { SendMessageDto } from './dto/send-message.dto';

/**
 * Accepts an email for sending: checks what the DTO cannot, then stores it as `queued` and
 * queues its delivery in one transaction, so that no accepted message is lost or sent unstored.
 */
@Injectable()
export class SendMessageUseCase {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly messages: MessagesRepository,
    private readonly deliveries: DeliveryQueue,
    private readonly webhooks: WebhookQueue,
    private readonly config: AppConfig,
    private readonly metrics: Metrics,
  ) {}

  async execute(userId: string, body: SendMessageDto): Promise<MessageResponse> {
    this.refuseUnreachableWebhook(body.webhook?.url);
    this.refuseUnknownAttachmentIds(body.attachmentIds ?? []);
    const attachments = this.decodeAttachments(body);
    // Ordered by time, so consecutive messages land side by side in the primary-key index.
    const message: NewMessage = {
      id: uuidv7(),
      userId,
      senderId: senderIdFor(userId, body.sender),
      sender: body.sender,
      senderKey: addressKey(body.sender),
      recipients: body.to,
      recipientKeys: body.to.map(addressKey),
      subject: body.subject,
      html: body.html,
      priority: body.priority ?? 'normal',
      bulkSendingId: body.bulkSendingId ?? null,
      contactId: body.contactId ?? null,
      customPayload: body.customPayload ?? null,
      webhookUrl: body.webhook?.url ?? null,
      webhookStatuses: body.webhook ? (body.webhook.status ?? []) : null,
      sentAt: new Date(),
      attachments,
    };
    const stored = await this.dataSource.transaction(async (manager) => {
      const { row, webhookEventIds } = await this.messages.create(message, manager);
      await this.deliveries.enqueue(manager, { messageId: message.id, attempt: 1 }, message.priority);
      await this.webhooks.enqueue(manager, webhookEventIds);
      return row;
    });
    this.deliveries.notifyCommitted();
    this.metrics.messagesAccepted.inc();
    return mapMessage(stored);
  }

  /**
   * A webhook URL naming a private address outright can never be delivered: say so now (SPEC §7).
   * Nor may it carry credentials, which would be sent as Basic auth and shown in the delivery log.
   */
  private refuseUnreachableWebhook(url: string | undefined): void {
    if (!url) return;
    const target = new URL(url);
    if (target.username || target.password) {
      throw new InvalidInputError([{ field: 'webhook.url', message: 'must not contain a user name or password' }]);
    }
    if (this.config.webhooks.allowPrivateNetworks) return;
    const address = literalAddress(target);
    if (address && !isPublicAddress(address)) {
      throw new InvalidInputError([{ field: 'webhook.url', message: `must not name a private, loopback or link-local address (${address})` }]);
    }
  }

  /** Stored attachments arrive with POST /attachments; until a user has stored one, every id is unknown. */
  private refuseUnknownAttachmentIds(ids: string[]): void {
    if (ids.length === 0) return;
    throw new InvalidInputError(ids.map((id, i) => ({ field: `attachmentIds[${i}]`, message: `no attachment ${id} exists` })));
  }

  private decodeAttachments(body: SendMessageDto): NewMessage['attachments'] {
    const attachments = (body.attachments ?? []).map((a) => ({
      id: uuidv7(),
      fileName: a.fileName,
      contentType: contentTypeOf(a.fileName) || 'application/octet-stream',
      content: Buffer.from(a.content, 'base64'),
    }));
    const bytes = attachments.reduce((sum, a) => sum + a.content.length, 0);
    const limit = this.config.limits.maxAttachmentBytes;
    if (bytes > limit) {
      throw new PayloadTooLargeError(`The attachments decode to ${bytes} bytes; the limit per message is ${limit}.`);
    }
    return attachments;
  }
}
