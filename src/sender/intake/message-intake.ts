import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { v7 as uuidv7 } from 'uuid';
import { AttachmentsRepository } from '../../messages';
import type { FieldError } from '../../platform/problem/problem-details';
import { InvalidInputError, PayloadTooLargeError } from '../../platform/problem/problem.errors';
import { AppConfig } from '../../platform/config/app-config';
import { Database } from '../../platform/database/database';
import { GroupCommit } from '../../platform/database/group-commit';
import { DeliveryQueue } from '../../platform/queue/delivery-queue';
import { IdempotencyKeys } from '../idempotency/idempotency-keys';
import { MessageResponse } from '../../messages';
import { MessageLifecycle } from '../../messages';
import { mapMessage } from '../../messages';
import { initialFates } from '../../messages';
import type { NewMessage } from '../../messages';
import { Metrics } from '../../platform/metrics/metrics';
import { SuppressionList } from '../../deliverability';
import { inlineAttachments, MessageAttachment, newMessage } from './new-message';
import type { SendRequest } from './send-request';
import { unstorableValueError } from './unstorable-value';

export interface SendResult {
  message: MessageResponse;
  /** The first answer to an earlier request with the same Idempotency-Key. */
  replayed: boolean;
}

export interface BatchResult {
  /** In the order of the requests. */
  messages: MessageResponse[];
  replayed: boolean;
}

// Enough to share a commit among every send in flight; a few writers keep the database busy.
const GROUP_COMMIT = { maxBatch: 100, maxWriters: 4, gatherMs: null };

/**
 * The one way a message gets in, whatever the way in: checks what the request's validation
 * cannot, then stores the message as `queued` (or `scheduled`) with its delivery job in one
 * transaction, so that no accepted message is lost or sent unstored. Plain sends share transactions with the sends
 * arriving with them (group commit); a send with an Idempotency-Key or stored attachments has a
 * transaction of its own, which holds the key's lock and reads the attachments; so does a batch.
 */
@Injectable()
export class MessageIntake {
  private readonly plainSends: GroupCommit<NewMessage, MessageResponse>;

  constructor(
    private readonly database: Database,
    private readonly lifecycle: MessageLifecycle,
    private readonly deliveries: DeliveryQueue,
    private readonly attachments: AttachmentsRepository,
    private readonly idempotencyKeys: IdempotencyKeys,
    private readonly suppressionList: SuppressionList,
    private readonly config: AppConfig,
    private readonly metrics: Metrics,
  ) {
    this.plainSends = new GroupCommit(database, (manager, messages) => this.store(manager, messages), GROUP_COMMIT);
  }

  async accept(userId: string, request: SendRequest, idempotencyKey?: string): Promise<SendResult> {
    try {
      return await this.acceptOne(userId, request, idempotencyKey);
    } catch (error) {
      throw unstorableValueError(error, [request], { batch: false }) ?? error;
    }
  }

  private async acceptOne(userId: string, request: SendRequest, idempotencyKey?: string): Promise<SendResult> {
    const inline = inlineAttachments(request);
    // Over the limit on its own: no need to look up the stored ones.
    this.refuseOversizedAttachments(inline, request.mime?.attachmentBytes);
    if (!idempotencyKey && !request.attachmentIds?.length) {
      const message = await this.plainSends.submit(newMessage(userId, request, inline));
      this.metrics.messagesAccepted.inc();
      return { message, replayed: false };
    }
    const result = await this.database.transaction(async (manager): Promise<SendResult> => {
      if (idempotencyKey) {
        const earlier = await this.idempotencyKeys.claim(manager, userId, idempotencyKey, request);
        if (earlier) return { message: earlier as MessageResponse, replayed: true };
      }
      const stored = await this.storedAttachments(manager, userId, request.attachmentIds ?? []);
      this.refuseOversizedAttachments([...inline, ...stored], request.mime?.attachmentBytes);
      const [message] = await this.store(manager, [newMessage(userId, request, [...inline, ...stored])]);
      if (idempotencyKey) await this.idempotencyKeys.remember(manager, userId, idempotencyKey, request, message);
      return { message, replayed: false };
    });
    if (!result.replayed) this.metrics.messagesAccepted.inc();
    return result;
  }

  /**
   * A batch (docs/api.md#sending): every request is checked first, errors named `messages[i].…`, then all are
   * stored in one transaction or none is. The Idempotency-Key covers the batch as a whole.
   * `beforeStore` runs once every check has passed and the batch is no replay, just before the
   * messages are stored: where a way in spends what the batch costs (the REST API's rate limit).
   */
  async acceptMany(
    userId: string,
    requests: SendRequest[],
    idempotencyKey?: string,
    beforeStore?: () => Promise<void>,
  ): Promise<BatchResult> {
    try {
      return await this.acceptAll(userId, requests, idempotencyKey, beforeStore);
    } catch (error) {
      throw unstorableValueError(error, requests, { batch: true }) ?? error;
    }
  }

  private async acceptAll(
    userId: string,
    requests: SendRequest[],
    idempotencyKey?: string,
    beforeStore?: () => Promise<void>,
  ): Promise<BatchResult> {
    const inline = await eachOf(requests, (request) => {
      const attachments = inlineAttachments(request);
      this.refuseOversizedAttachments(attachments);
      return attachments;
    });
    // What the key's fingerprint covers: the body as sent, so that a single send's key is never a batch's.
    const batch = { messages: requests };
    const result = await this.database.transaction(async (manager): Promise<BatchResult> => {
      if (idempotencyKey) {
        const earlier = await this.idempotencyKeys.claim(manager, userId, idempotencyKey, batch);
        if (earlier) return { ...(earlier as { messages: MessageResponse[] }), replayed: true };
      }
      const attachments = await eachOf(requests, async (request, i) => {
        const all = [
          ...inline[i],
          ...(request.attachmentIds?.length
            ? await this.storedAttachments(manager, userId, request.attachmentIds)
            : []),
        ];
        this.refuseOversizedAttachments(all);
        return all;
      });
      await beforeStore?.();
      const messages = await this.store(
        manager,
        requests.map((request, i) => newMessage(userId, request, attachments[i])),
      );
      if (idempotencyKey) await this.idempotencyKeys.remember(manager, userId, idempotencyKey, batch, { messages });
      return { messages, replayed: false };
    });
    if (!result.replayed) this.metrics.messagesAccepted.inc(requests.length);
    return result;
  }

  /**
   * Stores messages and their first delivery jobs in the transaction given (the workers of this
   * process wake when it commits); returns them as the API shows them.
   */
  private async store(manager: EntityManager, messages: NewMessage[]): Promise<MessageResponse[]> {
    const { messages: rows } = await this.lifecycle.accept(manager, await this.withSuppressed(manager, messages));
    await this.deliveries.enqueue(manager, messages.map(firstDeliveryJob));
    return rows.map((row) => mapMessage(row));
  }

  /**
   * The messages with their recipients on the owner's suppression list shown `suppressed` (
   * docs/delivery-and-deliverability.md#statuses), judged again at delivery. One look-up per user and kind of mail in the batch.
   */
  private async withSuppressed(manager: EntityManager, messages: NewMessage[]): Promise<NewMessage[]> {
    const groups = new Map<string, { userId: string; bulk: boolean; keys: Set<string> }>();
    for (const { userId, bulkSendingId, recipientKeys } of messages) {
      const bulk = bulkSendingId !== null;
      const group = groups.get(`${bulk}:${userId}`) ?? { userId, bulk, keys: new Set<string>() };
      for (const key of recipientKeys) group.keys.add(key);
      groups.set(`${bulk}:${userId}`, group);
    }
    const found = new Map<string, Map<string, string>>();
    for (const [name, { userId, bulk, keys }] of groups)
      found.set(name, await this.suppressionList.suppressedAmong(manager, userId, [...keys], { bulk }));
    return messages.map((message) => {
      const suppressed = found.get(`${message.bulkSendingId !== null}:${message.userId}`)!;
      if (suppressed.size === 0) return message;
      const lists = { to: message.recipients, cc: message.cc ?? [], bcc: message.bcc ?? [] };
      return { ...message, recipientFates: initialFates(lists, suppressed, message.sentAt) };
    });
  }

  /** The caller's stored attachments, in the order named; another user's id is as unknown as a made-up one. */
  private async storedAttachments(manager: EntityManager, userId: string, ids: string[]): Promise<MessageAttachment[]> {
    const named = ids.map((id) => id.toLowerCase());
    const found = new Map((await this.attachments.findOwned(userId, named, manager)).map((a) => [a.id, a]));
    const unknown = named.flatMap((id, i) =>
      found.has(id) ? [] : [{ field: `attachmentIds[${i}]`, message: `no attachment ${id} exists` }],
    );
    if (unknown.length > 0) throw new InvalidInputError(unknown);
    // Naming a file twice attaches it once.
    return [...new Set(named)].map((id) => {
      const a = found.get(id)!;
      return {
        id: uuidv7(),
        fileName: a.fileName,
        contentType: a.contentType,
        size: a.size,
        content: null,
        // A stored file has no Content-ID: inline images come with the send body (attachments[].contentId).
        contentId: null,
        attachmentId: a.id,
      };
    });
  }

  /** MAX_ATTACHMENT_BYTES bounds the decoded bytes of a message, inline, stored and in submitted MIME together. */
  private refuseOversizedAttachments(attachments: MessageAttachment[], submittedBytes = 0): void {
    const bytes = attachments.reduce((sum, a) => sum + a.size, submittedBytes);
    const limit = this.config.limits.maxAttachmentBytes;
    if (bytes > limit) {
      throw new PayloadTooLargeError(`The attachments come to ${bytes} bytes; the limit per message is ${limit}.`);
    }
  }
}

/**
 * Runs a check on every message of a batch: their 400s become one, naming `messages[i].<field>`;
 * without any, the first other refusal (413) is thrown, saying which message it is about.
 */
async function eachOf<T>(
  requests: SendRequest[],
  check: (request: SendRequest, i: number) => T | Promise<T>,
): Promise<T[]> {
  const results: T[] = [];
  const invalid: FieldError[] = [];
  let tooLarge: PayloadTooLargeError | undefined;
  for (const [i, request] of requests.entries()) {
    try {
      results.push(await check(request, i));
    } catch (error) {
      if (error instanceof InvalidInputError)
        invalid.push(...error.errors.map((e) => ({ ...e, field: `messages[${i}].${e.field}` })));
      else if (error instanceof PayloadTooLargeError)
        tooLarge ??= new PayloadTooLargeError(`messages[${i}]: ${error.message}`);
      else throw error;
    }
  }
  if (invalid.length > 0) throw new InvalidInputError(invalid);
  if (tooLarge) throw tooLarge;
  return results;
}

/** A scheduled message's first job waits for its moment; any other is due now (a past scheduledAt means now). */
function firstDeliveryJob(message: NewMessage): Parameters<DeliveryQueue['enqueue']>[1][number] {
  const { id: messageId, priority, scheduledAt, sentAt } = message;
  return scheduledAt && scheduledAt > sentAt
    ? { job: { messageId, attempt: 1, scheduled: true }, priority, startAt: scheduledAt }
    : { job: { messageId, attempt: 1 }, priority };
}
