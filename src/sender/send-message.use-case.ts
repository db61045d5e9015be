import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { lookup as contentTypeOf } from 'mime-types';
import { DataSource, EntityManager } from 'typeorm';
import { v7 as uuidv7 } from 'uuid';
import { AttachmentsRepository } from '../attachments/attachments.repository';
import { InvalidInputError, PayloadTooLargeError } from '../common/problem/problem.errors';
import { IdempotencyKeys } from '../idempotency/idempotency-keys';
import { AppConfig } from '../config/app-config';
import { isPublicAddress, literalAddress } from '../webhooks/webhook-target';
import { MessageResponse } from '../messages/dto/message.response';
import { NewMessage } from '../messages/messages.repository';
import { mapMessage } from '../messages/message.mapper';
import { addressKey, senderIdFor } from '../messages/addresses';
import { SendMessageDto } from './dto/send-message.dto';
import { SendBatcher } from './send-batcher';

export interface SendResult {
  message: MessageResponse;
  /** The first answer to an earlier request with the same Idempotency-Key. */
  replayed: boolean;
}

type MessageAttachment = NewMessage['attachments'][number];

/**
 * Accepts an email for sending: checks what the DTO cannot, then stores it as `queued` and
 * queues its delivery in one transaction, so that no accepted message is lost or sent unstored.
 */
@Injectable()
export class SendMessageUseCase {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly batcher: SendBatcher,
    private readonly attachments: AttachmentsRepository,
    private readonly idempotencyKeys: IdempotencyKeys,
    private readonly config: AppConfig,
  ) {}

  async execute(userId: string, body: SendMessageDto, idempotencyKey?: string): Promise<SendResult> {
    this.refuseUnreachableWebhook(body.webhook?.url);
    const inline = this.decodeInlineAttachments(body);
    if (!idempotencyKey && !body.attachmentIds?.length) {
      return { message: await this.batcher.store(this.newMessage(userId, body, inline)), replayed: false };
    }
    // A key's lock, and the look-up of stored attachments, belong in the send's own transaction.
    const result = await this.dataSource.transaction(async (manager): Promise<SendResult> => {
      if (idempotencyKey) {
        const earlier = await this.idempotencyKeys.claim(manager, userId, idempotencyKey, body);
        if (earlier) return { message: earlier as MessageResponse, replayed: true };
      }
      const stored = await this.storedAttachments(manager, userId, body.attachmentIds ?? []);
      this.refuseOversizedAttachments([...inline, ...stored]);
      const [row] = await this.batcher.storeIn(manager, [this.newMessage(userId, body, [...inline, ...stored])]);
      const message = mapMessage(row);
      if (idempotencyKey) await this.idempotencyKeys.remember(manager, userId, idempotencyKey, body, message);
      return { message, replayed: false };
    });
    if (!result.replayed) this.batcher.committed(1);
    return result;
  }

  private newMessage(userId: string, body: SendMessageDto, attachments: MessageAttachment[]): NewMessage {
    return {
      // Ordered by time, so consecutive messages land side by side in the primary-key index.
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

  /** The caller's stored attachments, in the order named; another user's id is as unknown as a made-up one. */
  private async storedAttachments(manager: EntityManager, userId: string, ids: string[]): Promise<MessageAttachment[]> {
    const named = ids.map((id) => id.toLowerCase());
    const found = new Map((await this.attachments.findOwned(userId, named, manager)).map((a) => [a.id, a]));
    const unknown = named.flatMap((id, i) => (found.has(id) ? [] : [{ field: `attachmentIds[${i}]`, message: `no attachment ${id} exists` }]));
    if (unknown.length > 0) throw new InvalidInputError(unknown);
    // Naming a file twice attaches it once.
    return [...new Set(named)].map((id) => {
      const a = found.get(id)!;
      return { id: uuidv7(), fileName: a.file_name, contentType: a.content_type, size: a.size, content: null, attachmentId: a.id };
    });
  }

  private decodeInlineAttachments(body: SendMessageDto): MessageAttachment[] {
    const attachments = (body.attachments ?? []).map((a) => {
      const content = Buffer.from(a.content, 'base64');
      return {
        id: uuidv7(),
        fileName: a.fileName,
        contentType: contentTypeOf(a.fileName) || 'application/octet-stream',
        size: content.length,
        content,
        attachmentId: null,
      };
    });
    // Over the limit on its own: no need to look up the stored ones.
    this.refuseOversizedAttachments(attachments);
    return attachments;
  }

  /** MAX_ATTACHMENT_BYTES bounds the decoded bytes of a message, inline and stored together. */
  private refuseOversizedAttachments(attachments: MessageAttachment[]): void {
    const bytes = attachments.reduce((sum, a) => sum + a.size, 0);
    const limit = this.config.limits.maxAttachmentBytes;
    if (bytes > limit) {
      throw new PayloadTooLargeError(`The attachments come to ${bytes} bytes; the limit per message is ${limit}.`);
    }
  }
}
