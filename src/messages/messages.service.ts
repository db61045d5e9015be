import { Injectable } from '@nestjs/common';
import { pageEnvelope } from '../platform/paging';
import { isUuid } from '../platform/uuid';
import { NotFoundError } from '../platform/problem/problem.errors';
import { ListMessagesQuery } from './dto/list-messages.query';
import { MessagePageResponse } from './dto/message-page.response';
import { MessageResponse } from './dto/message.response';
import { mapMessage } from './message.mapper';
import { MessageCountsRepository } from './message-counts.repository';
import { MessageFilter, MessagesRepository } from './messages.repository';
import { senderIdFor } from './addresses';

const SKIP_READ_ALONGSIDE = 1_000;

@Injectable()
export class MessagesService {
  constructor(
    private readonly messages: MessagesRepository,
    private readonly counts: MessageCountsRepository,
  ) {}

  async list(userId: string, query: ListMessagesQuery): Promise<MessagePageResponse> {
    const filter = toFilter(userId, query);
    const skip = (query.page - 1) * query.take;
    // Near the top, the page is read beside the count (a page past the end just comes back
    // empty); deeper, only once the count shows it exists, so no far-off page costs a long skip.
    const [total, nearRows] = await Promise.all([
      this.counts.count(userId, filter),
      skip < SKIP_READ_ALONGSIDE ? this.messages.list(userId, filter, skip, query.take) : undefined,
    ]);
    const envelope = pageEnvelope(query, total);
    const rows = nearRows ?? (skip < total ? await this.messages.list(userId, filter, skip, query.take) : []);
    const histories = query.includeStatusHistory
      ? await this.messages.getStatusHistories(
          userId,
          rows.map((r) => r.id),
        )
      : undefined;
    return {
      messages: rows.map((row) => mapMessage(row, histories?.get(row.id))),
      ...envelope,
      startDate: query.startDate?.toISOString() ?? null,
      endDate: query.endDate?.toISOString() ?? null,
      fromEmail: query.fromEmail ?? null,
      toEmail: query.toEmail ?? null,
      statuses: query.statuses?.join(',') ?? null,
      bulkSending: query.bulkSending ?? null,
      q: query.q ?? null,
    };
  }

  async get(userId: string, id: string): Promise<MessageResponse> {
    // A malformed id names no message: the same 404 as an unknown or foreign one.
    const row = isUuid(id) ? await this.messages.getById(userId, id) : undefined;
    if (!row) throw new NotFoundError(isUuid(id) ? `Message ${id}` : 'That message');
    const histories = await this.messages.getStatusHistories(userId, [row.id]);
    return mapMessage(row, histories.get(row.id));
  }
}

function toFilter(userId: string, query: ListMessagesQuery): MessageFilter {
  return {
    startDate: query.startDate,
    endDate: query.endDate,
    senderId: query.fromEmail ? senderIdFor(userId, query.fromEmail) : undefined,
    recipient: query.toEmail,
    statuses: query.statuses,
    bulkSendingId: query.bulkSending,
    text: query.q,
  };
}
