import { Injectable } from '@nestjs/common';
import type { Download } from '../platform/http/byte-response';
import { pageEnvelope } from '../platform/paging';
import { NotFoundError } from '../platform/problem/problem.errors';
import { isUuid } from '../platform/uuid';
import type { ListInboundQuery } from './dto/list-inbound.query';
import { InboundMailResponse, InboundPageResponse } from './dto/inbound.response';
import { listItem } from './inbound-list-item';
import { InboundRepository } from './inbound.repository';

/** GET /user/inbound and its items (docs/inbound.md). */
@Injectable()
export class InboundService {
  constructor(private readonly inbound: InboundRepository) {}

  async list(userId: string, query: ListInboundQuery): Promise<InboundPageResponse> {
    const filter = {
      startDate: query.startDate,
      endDate: query.endDate,
      fromEmail: query.fromEmail,
      toEmail: query.toEmail,
    };
    const skip = (query.page - 1) * query.take;
    const [total, rows] = await Promise.all([
      this.inbound.count(userId, filter),
      this.inbound.list(userId, filter, skip, query.take),
    ]);
    const attachments = await this.inbound.attachmentsOf(
      userId,
      rows.map((row) => row.id),
    );
    return {
      inbound: rows.map((row) => listItem(row, attachments.get(row.id)!)),
      ...pageEnvelope(query, total),
      startDate: query.startDate?.toISOString() ?? null,
      endDate: query.endDate?.toISOString() ?? null,
      fromEmail: query.fromEmail ?? null,
      toEmail: query.toEmail ?? null,
    };
  }

  async get(userId: string, id: string): Promise<InboundMailResponse> {
    const row = isUuid(id) ? await this.inbound.get(userId, id) : undefined;
    if (!row) throw notFound(id);
    const attachments = await this.inbound.attachmentsOf(userId, [row.id]);
    return { ...listItem(row, attachments.get(row.id)!), text: row.text, html: row.html, headers: row.headers };
  }

  async attachment(userId: string, id: string, index: string): Promise<Download> {
    const position = /^\d{1,5}$/.test(index) ? Number(index) : -1;
    const found = isUuid(id) && position >= 0 ? await this.inbound.attachment(userId, id, position) : undefined;
    if (!found) {
      // The mail exists but has no such attachment: say which is missing.
      if (isUuid(id) && (await this.inbound.get(userId, id))) throw new NotFoundError(`Attachment ${index} of ${id}`);
      throw notFound(id);
    }
    return { bytes: found.content, contentType: found.contentType, fileName: found.fileName };
  }

  async raw(userId: string, id: string): Promise<Download> {
    const raw = isUuid(id) ? await this.inbound.raw(userId, id) : undefined;
    if (!raw) throw notFound(id);
    return { bytes: raw, contentType: 'message/rfc822', fileName: `${id}.eml` };
  }
}

// A malformed id names no mail: the same 404 as an unknown or foreign one.
const notFound = (id: string) => new NotFoundError(isUuid(id) ? `Inbound mail ${id}` : 'That inbound mail');
