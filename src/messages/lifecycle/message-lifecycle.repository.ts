import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { preparedInTransaction } from '../../platform/database/prepared-in-transaction';
import { WebhookQueue } from '../../platform/queue/webhook-queue';
import type { MessageStatus } from '../message-status';
import { asRecord, GIVEN_COLUMNS, RECORDSET_COLUMNS, ROW_COLUMNS, rowColumns } from '../message-fields';
import type { MessageRow, NewMessage } from '../messages.repository';
import type { FateChange, RecipientFate } from '../recipient-fates';
import { EventFanOut } from './event-fan-out';
import { messageOutboxCte, OUTBOX_IDS_BY_MESSAGE, OUTBOX_READS } from './message-events.sql';
import { recipientFatesSql, transitionSql } from './status-change.sql';
import { ACCEPTED_STATUS, MessageState, SCHEDULED_STATUS, TargetOf, TransitionName } from './transitions';

/** One message's change in an event's batch. */
export interface StatusChange<N extends TransitionName = TransitionName> {
  messageId: string;
  /** The delivery attempt the change belongs to, for events guarded by one. */
  attempt?: number;
  /** The status to move to, for events with several (finish). */
  status?: TargetOf<N>;
  /** The history entry's detail: the SMTP reply or error, when there is one. */
  detail?: string | null;
  /** For per-recipient events (a bounce, a complaint): the recipient's address key (docs/delivery-and-deliverability.md#statuses). */
  recipient?: string | null;
  /** What the change does to the message's recipients (docs/delivery-and-deliverability.md#statuses "Recipients"), if anything. */
  fates?: FateChange[];
  /**
   * For the claim and the suppress: recipients shown suppressed stay so even if taken off the list
   * since, as on a retry that sends only its remaining copies (judged at the first attempt).
   */
  keepSuppressed?: boolean;
  /** For a finish that defers the message: the delay before its next attempt, kept as its nextAttemptAt. */
  retryAfterSeconds?: number;
}

/** A history entry that changes no status: a report worth keeping that moves nothing (docs/delivery-and-deliverability.md). */
export interface HistoryNote {
  messageId: string;
  detail: string;
  recipient: string | null;
}

/** What a report says about one recipient of a message (docs/delivery-and-deliverability.md): a history entry's detail and recipient. */
export interface RecipientReport {
  messageId: string;
  detail: string;
  /** The recipient's address key. */
  recipient: string;
  /** Its position in the message's delivery order (recipients.ts deliveryOrder). */
  position: number;
}

/** A message that an event moved. */
export interface MovedMessage {
  id: string;
  userId: string;
  status: MessageStatus;
  attempt: number | null;
}

/**
 * Every status change of a message (docs/delivery-and-deliverability.md#statuses), from its acceptance on: each event is one
 * statement per batch that moves the messages its guards allow, appends their history entries
 * and writes the events they cause (the webhooks context's fan-out, EventFanOut); the outbox rows' jobs are queued in the same
 * transaction (the caller's manager), so callers only say what happened.
 */
@Injectable()
export class MessageLifecycle {
  constructor(
    private readonly webhookQueue: WebhookQueue,
    private readonly fanOut: EventFanOut,
  ) {}

  /**
   * Stores new messages as `queued` (`scheduled` when their scheduledAt is after their sentAt), in one statement whatever their number: their senders (once
   * per user and address), the messages, their recipients, the first history entries, and any
   * webhook events; then their attachments. Returns them as lists read them, in the order given.
   * Pass the manager of the caller's transaction so that whatever else the send writes commits
   * or rolls back with it.
   */
  async accept(
    manager: EntityManager,
    messages: NewMessage[],
  ): Promise<{ messages: MessageRow[]; outboxEventIds: string[] }> {
    const stored = await preparedInTransaction<MessageRow & OutboxIds>(
      manager,
      `WITH given AS (
         SELECT * FROM jsonb_to_recordset($1::jsonb) AS g(${RECORDSET_COLUMNS.join(', ')}, sender_key text, recipient_keys text[])
       ), accepted AS (
         SELECT *, CASE WHEN scheduled_at > sent_at THEN '${SCHEDULED_STATUS}' ELSE '${ACCEPTED_STATUS}' END AS status FROM given
       ), sender AS (
         -- In id order: two batches taking the same new senders' index locks in opposite orders
         -- would deadlock.
         INSERT INTO senders (id, user_id, email)
         SELECT DISTINCT sender_id, user_id, sender_key FROM given ORDER BY sender_id ON CONFLICT DO NOTHING
       ), m AS (
         INSERT INTO messages (${GIVEN_COLUMNS.join(', ')}, status, updated_at)
         SELECT ${GIVEN_COLUMNS.join(', ')}, status, sent_at
         FROM accepted
         RETURNING ${[...new Set([...ROW_COLUMNS, ...OUTBOX_READS])].join(', ')}
       ), recipients AS (
         INSERT INTO message_recipients (message_id, email, user_id, sent_at)
         SELECT given.id, key, given.user_id, given.sent_at FROM given, unnest(given.recipient_keys) AS key
       ), history AS (
         INSERT INTO message_status_events (message_id, status, at) SELECT id, status, sent_at FROM accepted
       ), ${messageOutboxCte(this.fanOut, 'm', true, INITIALLY_SUPPRESSED)}
       SELECT ${rowColumns('m')}, outbox.outbox_event_ids
       FROM m LEFT JOIN ${OUTBOX_IDS_BY_MESSAGE} outbox ON outbox.message_id = m.id`,
      [JSON.stringify(messages.map(recordOf))],
    );
    for (const message of messages) {
      for (const [position, attachment] of message.attachments.entries()) {
        await manager.query(
          `INSERT INTO message_attachments (id, message_id, position, file_name, content_type, size, content, content_id, attachment_id)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
          [
            attachment.id,
            message.id,
            position,
            attachment.fileName,
            attachment.contentType,
            attachment.size,
            attachment.content,
            attachment.contentId,
            attachment.attachmentId,
          ],
        );
      }
    }
    for (const message of messages) {
      if (message.mime)
        await manager.query(`INSERT INTO message_mime (message_id, content) VALUES ($1, $2)`, [
          message.id,
          message.mime,
        ]);
    }
    const outboxEventIds = await this.enqueueOutbox(manager, stored);
    const byId = new Map(stored.map((row) => [row.id, withoutOutboxEventId(row)]));
    return { messages: messages.map((message) => byId.get(message.id)!), outboxEventIds };
  }

  /**
   * queued/deferred → sending for the attempt that follows the last one, or sending again for the
   * same attempt (its job came back: its worker died, or outlived the lease). Returns the messages
   * it moved, with the `returning` columns; the others are final or belong to another attempt.
   */
  claim<R extends object = object>(
    manager: EntityManager,
    attempts: (Pick<StatusChange, 'fates' | 'keepSuppressed'> & {
      messageId: string;
      attempt: number;
      note?: string | null;
    })[],
    returning: { [K in keyof R]: string },
  ): Promise<{ moved: (MovedMessage & R)[]; outboxEventIds: string[] }> {
    const changes = attempts.map(({ messageId, attempt, note, fates, keepSuppressed }) => ({
      messageId,
      attempt,
      fates,
      keepSuppressed,
      // The history names the attempt after the first, and what the caller notes (recipients it skips).
      detail: [attempt > 1 ? `attempt ${attempt}` : null, note].filter(Boolean).join('; ') || null,
    }));
    return this.apply<'claim', R>(manager, 'claim', changes, returning);
  }

  /**
   * queued/deferred (or a sending job come back) → suppressed, in the claim's place: every
   * recipient is on the owner's suppression list, so the attempt ends without SMTP (`fates`: each
   * recipient suppressed, with its reason). Returns the messages it moved; the others are final or
   * belong to another attempt.
   */
  suppress(
    manager: EntityManager,
    changes: (Required<
      Omit<StatusChange<'suppress'>, 'status' | 'recipient' | 'fates' | 'keepSuppressed' | 'retryAfterSeconds'>
    > &
      Pick<StatusChange, 'fates'>)[],
  ): Promise<{ moved: MovedMessage[]; outboxEventIds: string[] }> {
    return this.apply(manager, 'suppress', changes);
  }

  /**
   * scheduled → queued, for messages whose moment came (their first delivery job was taken). The
   * caller claims them next, in the same transaction; a message canceled meanwhile stays canceled.
   */
  due(manager: EntityManager, messageIds: string[]): Promise<{ moved: MovedMessage[]; outboxEventIds: string[] }> {
    return this.apply(
      manager,
      'due',
      messageIds.map((messageId) => ({ messageId })),
    );
  }

  /**
   * The message's status and attempt count, its row locked until the caller's transaction ends, so
   * that the change the caller decides on meets the status it read: a claim under way either
   * committed before or waits. `userId`: only the owner's message. Undefined: no such message.
   */
  async lockState(manager: EntityManager, messageId: string, userId?: string): Promise<MessageState | undefined> {
    const [state]: MessageState[] = await manager.query(
      `SELECT status, delivery_attempts AS attempts FROM messages
       WHERE id = $1${userId === undefined ? '' : ' AND user_id = $2'} FOR UPDATE`,
      userId === undefined ? [messageId] : [messageId, userId],
    );
    return state;
  }

  /** Its recipients' fates as stored (`[]` for a message stored before they were kept); read under lockState's lock. */
  async fatesOf(manager: EntityManager, messageId: string): Promise<RecipientFate[]> {
    const [row]: { fates: RecipientFate[] }[] = await manager.query(
      `SELECT recipient_fates AS fates FROM messages WHERE id = $1`,
      [messageId],
    );
    return row.fates;
  }

  /**
   * Its owner's cancel: scheduled, queued or deferred → canceled, with `fates` (canceledFates): the
   * recipients not yet accepted canceled. Returns the messages it moved.
   */
  cancel(
    manager: EntityManager,
    changes: Required<Pick<StatusChange<'cancel'>, 'messageId' | 'fates'>>[],
  ): Promise<{ moved: MovedMessage[]; outboxEventIds: string[] }> {
    return this.apply(manager, 'cancel', changes);
  }

  /**
   * A permanent failure reported for one recipient: sent → bounced, and the recipient bounced.
   * Returns the message if it moved; not when it was already bounced (for another recipient) or is
   * final, when the recipient is bounced all the same (docs/delivery-and-deliverability.md#webhooks: whether or not the message moves).
   */
  bounce(manager: EntityManager, report: RecipientReport): Promise<MovedMessage | undefined> {
    return this.aboutRecipient(manager, 'bounce', report, 'bounced');
  }

  /** A recipient's complaint: sent or bounced → complained (final), and the recipient complained. As bounce(). */
  complain(manager: EntityManager, report: RecipientReport): Promise<MovedMessage | undefined> {
    return this.aboutRecipient(manager, 'complain', report, 'complained');
  }

  private async aboutRecipient(
    manager: EntityManager,
    name: 'bounce' | 'complain',
    report: RecipientReport,
    status: FateChange['status'],
  ): Promise<MovedMessage | undefined> {
    const { messageId, detail, recipient, position } = report;
    // A recipient the message does not list (position -1) changes no fate: `-> -1` would read the last one.
    const fates = position >= 0 ? [{ position, key: recipient, status, detail }] : [];
    const { moved } = await this.apply(manager, name, [{ messageId, detail, recipient, fates }]);
    if (moved.length === 0 && fates.length > 0) {
      const events = await preparedInTransaction<{ id: string }>(manager, recipientFatesSql(this.fanOut), [
        [messageId],
        [fatesJson(fates)],
      ]);
      await this.webhookQueue.enqueue(
        manager,
        events.map((event) => event.id),
      );
    }
    return moved[0];
  }

  /**
   * sending → sent, deferred or failed, for the attempts still sending. Returns the messages it
   * moved, a deferred one with its nextAttemptAt (null for the others).
   */
  finish(
    manager: EntityManager,
    outcomes: (Required<Omit<StatusChange<'finish'>, 'recipient' | 'fates' | 'keepSuppressed' | 'retryAfterSeconds'>> &
      Pick<StatusChange, 'fates' | 'retryAfterSeconds'>)[],
  ): Promise<{ moved: (MovedMessage & { nextAttemptAt: Date | null })[]; outboxEventIds: string[] }> {
    return this.apply<'finish', { nextAttemptAt: Date | null }>(manager, 'finish', outcomes, {
      nextAttemptAt: 'm.next_attempt_at',
    });
  }

  /**
   * Applies one event to a batch of messages in one statement: the changes its guards
   * (TRANSITIONS) allow happen, the others are left out of `moved`.
   */
  private async apply<N extends TransitionName, R extends object = object>(
    manager: EntityManager,
    name: N,
    changes: StatusChange<N>[],
    returning?: { [K in keyof R]: string },
  ): Promise<{ moved: (MovedMessage & R)[]; outboxEventIds: string[] }> {
    // A claim's batch often has no message to suppress: no round trip for an empty statement.
    if (changes.length === 0) return { moved: [], outboxEventIds: [] };
    const rows = await preparedInTransaction<MovedMessage & R & OutboxIds>(
      manager,
      transitionSql(this.fanOut, name, returning),
      [
        changes.map((c) => c.messageId),
        changes.map((c) => c.attempt ?? null),
        changes.map((c) => c.status ?? null),
        changes.map((c) => c.detail ?? null),
        changes.map((c) => c.recipient ?? null),
        changes.map((c) => (c.fates ? fatesJson(c.fates) : null)),
        changes.map((c) => c.keepSuppressed ?? false),
        changes.map((c) => c.retryAfterSeconds ?? null),
      ],
    );
    const outboxEventIds = await this.enqueueOutbox(manager, rows);
    return { moved: rows.map((row) => withoutOutboxEventId(row) as MovedMessage & R), outboxEventIds };
  }

  /**
   * Appends a history entry in the message's current status, changing nothing else: no status,
   * no `sequence`, no webhook (docs/delivery-and-deliverability.md: a delay notice is a history entry only).
   */
  async note(manager: EntityManager, { messageId, detail, recipient }: HistoryNote): Promise<void> {
    await manager.query(
      `INSERT INTO message_status_events (message_id, status, at, detail, recipient, note)
       SELECT id, status, date_trunc('milliseconds', clock_timestamp()), $2, $3, true FROM messages WHERE id = $1`,
      [messageId, detail, recipient],
    );
  }

  private async enqueueOutbox(manager: EntityManager, rows: OutboxIds[]): Promise<string[]> {
    const eventIds = rows.flatMap((row) => row.outbox_event_ids ?? []);
    await this.webhookQueue.enqueue(manager, eventIds);
    return eventIds;
  }
}

/** A new message as one element of the JSON that accept() reads with jsonb_to_recordset. */
function recordOf(message: NewMessage) {
  return { ...asRecord(message), sender_key: message.senderKey, recipient_keys: message.recipientKeys };
}

/** FateChange[] as recipientChangesCte reads it. */
function fatesJson(fates: FateChange[]): string {
  return JSON.stringify(
    fates.map(({ position, key, status, detail, refused, route }) => ({
      p: position,
      k: key,
      s: status,
      d: detail,
      r: refused,
      o: route && { host: route.host, tls: route.tls },
    })),
  );
}

/** The outbox rows (one per event and target) a statement wrote for a message, for enqueueOutbox. */
interface OutboxIds {
  outbox_event_ids: string[] | null;
}

/** A statement's row without the outbox rows it reports for enqueueOutbox. */
function withoutOutboxEventId<T extends OutboxIds>(row: T): Omit<T, 'outbox_event_ids'> {
  const rest: Partial<T> = { ...row };
  delete rest.outbox_event_ids;
  return rest as Omit<T, 'outbox_event_ids'>;
}

/** Recipients accepted already suppressed (docs/delivery-and-deliverability.md#statuses): each a recipient.suppressed event (docs/delivery-and-deliverability.md#webhooks). */
const INITIALLY_SUPPRESSED = `SELECT m.id AS message_id, (f.i - 1)::int AS position, 'suppressed' AS status
  FROM m, jsonb_array_elements(m.recipient_fates) WITH ORDINALITY f(v, i)
  WHERE m.recipient_fates @> '[{"status": "suppressed"}]' AND f.v ->> 'status' = 'suppressed'`;
