import { pipeline } from 'node:stream';
import { Injectable } from '@nestjs/common';
import { AttachmentsRepository } from './attachments/attachments.repository';
import type { Download } from '../platform/http/byte-response';
import { NotFoundError } from '../platform/problem/problem.errors';
import { Slots } from '../platform/slots';
import { isUuid } from '../platform/uuid';
import { Metrics } from '../platform/metrics/metrics';
import { composeForReading, composeSubmittedForReading } from './mime/compose';
import { bodiesOf } from './mime/mime';
import type { OutgoingMail } from './mime/outgoing-mail';
import { MessageContentResponse } from './dto/message-content.response';
import { MessageContentRepository, StoredContent, StoredPart } from './message-content.repository';
import { outgoingMailOf } from './outgoing-mail-of';
import { SubmittedContent, decoderOf, submittedContent } from './submitted-content';

/** Submitted MIME parsed at once in a process (read-back): each may hold a large message's parts decoded. */
const MIME_PARSES = 2;

// A path index names a part by its place: digits, no sign, no leading zero; anything else names none.
const INDEX = /^(0|[1-9]\d{0,8})$/;

/**
 * Reading back what was sent (docs/api.md#reading-back): the body, the custom headers and the attachments, for a
 * message composed from its fields and for one submitted over SMTP (read from its MIME); and the
 * `.eml`, made by the composer delivery uses.
 */
@Injectable()
export class MessageContentService {
  private readonly parses = new Slots(MIME_PARSES);

  constructor(
    private readonly contents: MessageContentRepository,
    private readonly attachments: AttachmentsRepository,
    private readonly metrics: Metrics,
  ) {}

  async content(userId: string, id: string): Promise<MessageContentResponse> {
    const message = await this.find(userId, id);
    if (message.submitted) {
      const { attachments, ...submitted } = await this.reading(userId, message.id);
      return {
        ...submitted,
        attachments: attachments.map(({ fileName, contentType, size, contentId }, index) => ({
          index,
          fileName,
          contentType,
          size,
          contentId,
        })),
      };
    }
    const { html, text } = bodiesOf(message);
    const parts = await this.contents.parts(userId, message.id, false);
    return {
      html: html ?? null,
      text,
      headers: message.headers ?? {},
      attachments: parts.map(({ position, fileName, contentType, size, contentId }) => ({
        index: position,
        fileName,
        contentType,
        size,
        contentId,
      })),
    };
  }

  async attachment(userId: string, id: string, index: string): Promise<Download> {
    const message = await this.find(userId, id);
    const position = INDEX.test(index) ? Number(index) : -1;
    const notFound = new NotFoundError(
      `${position >= 0 ? `Attachment ${position}` : 'That attachment'} of message ${message.id}`,
    );
    if (message.submitted) {
      const part = position >= 0 ? (await this.reading(userId, message.id)).attachments[position] : undefined;
      if (!part) throw notFound;
      // Just its body, decoded as the client reads: a client that never reads holds a few chunks.
      const encoded = this.contents.mimeStream(userId, message.id, part.start, part.end);
      const bytes = pipeline(encoded, decoderOf(part.encoding), () => undefined);
      return { bytes, contentType: part.contentType, fileName: part.fileName };
    }
    const part = position >= 0 ? await this.contents.part(userId, message.id, position) : undefined;
    if (!part) throw notFound;
    const [bytes] = await this.bytesOf(userId, [part]);
    return { bytes, contentType: part.contentType, fileName: part.fileName };
  }

  /** The message as composed for delivery, without a copy's own headers or a signature, and never a Bcc. */
  async raw(userId: string, id: string): Promise<Download> {
    const message = await this.find(userId, id);
    const fileName = `${message.id}.eml`;
    if (message.submitted) {
      // Streamed from storage as the client reads: a client that never reads holds a chunk, not the message.
      const mime = this.contents.mimeStream(userId, message.id);
      const mail = outgoingMailOf({ ...message, attachments: [], mime: null });
      return { bytes: await composeSubmittedForReading(mail, mime), contentType: 'message/rfc822', fileName };
    }
    const parts = await this.contents.parts(userId, message.id, true);
    const bytes = await this.bytesOf(userId, parts);
    const attachments: OutgoingMail['attachments'] = parts.map((part, i) => ({
      fileName: part.fileName,
      contentType: part.contentType,
      content: bytes[i],
      contentId: part.contentId,
    }));
    // Dated when it was accepted: each delivery attempt dates its own composition.
    const mail = { ...outgoingMailOf({ ...message, attachments, mime: null }), date: message.sentAt };
    return { bytes: await composeForReading(mail), contentType: 'message/rfc822', fileName };
  }

  /**
   * A submitted message's MIME read back (docs/api.md#reading-back): parsed once, from storage a chunk at a time,
   * and what that found kept with it, so that later reads (an attachment: just its range) parse
   * nothing. At most MIME_PARSES parses at once; a read that waited for one finds the reading of
   * another parse of the same message kept meanwhile.
   */
  private async reading(userId: string, id: string): Promise<SubmittedContent> {
    const kept = await this.contents.reading<SubmittedContent>(userId, id);
    if (kept) return kept;
    const release = await this.parses.take();
    try {
      const keptMeanwhile = await this.contents.reading<SubmittedContent>(userId, id);
      if (keptMeanwhile) return keptMeanwhile;
      this.metrics.readBackParses.inc();
      const found = await submittedContent(this.contents.mimeStream(userId, id));
      await this.contents.keepReading(userId, id, found);
      return found;
    } finally {
      release();
    }
  }

  /** A malformed id names no message: the same 404 as an unknown or foreign one (docs/api.md#authentication). */
  private async find(userId: string, id: string): Promise<StoredContent> {
    const message = isUuid(id) ? await this.contents.content(userId, id) : undefined;
    if (!message) throw new NotFoundError(isUuid(id) ? `Message ${id}` : 'That message');
    return message;
  }

  /** Each part's bytes, in order: an inline one's own, a stored one's from the attachments room. */
  private async bytesOf(userId: string, parts: StoredPart[]): Promise<Buffer[]> {
    const stored = await this.attachments.contentOf(
      userId,
      parts.flatMap((p) => (p.attachmentId === null ? [] : [p.attachmentId])),
    );
    return parts.map((p) => p.content ?? stored.get(p.attachmentId!)!);
  }
}
