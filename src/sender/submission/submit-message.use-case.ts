import { Injectable } from '@nestjs/common';
import type { Readable } from 'node:stream';
import { inspectJson } from '../../platform/http/json-body/inspect-json';
import { createValidationPipe } from '../../platform/validation/validation.pipe';
import { RecentWrites } from '../../platform/database/replica/recent-writes';
import { MessageIntake } from '../intake/message-intake';
import type { MessageResponse } from '../../messages';
import { MessageBudget } from '../../auth';
import { SendMessageDto } from '../dto/send-message.dto';
import { readSubmittedSendBody } from './submitted-send-body';

/** A submitted message's bytes, read twice: streamed through the parser, then whole for storage. */
export interface SubmittedBytes {
  stream(): Readable;
  read(): Promise<Buffer>;
}

/**
 * One message submitted over SMTP, taken in exactly as a REST send would be (docs/api.md#smtp-submission): its send
 * body passes the REST body's own validation, it spends one request of the user's minute, and the
 * intake stores it (with its MIME as received) or refuses it. A message the validation refuses is
 * refused (554) whatever the count of the minute says and however the database fares. Refusals are
 * the REST API's ProblemErrors; the SMTP server says them in SMTP.
 */
@Injectable()
export class SubmitMessageUseCase {
  private readonly validation = createValidationPipe();

  constructor(
    private readonly intake: MessageIntake,
    private readonly budget: MessageBudget,
    private readonly recentWrites: RecentWrites,
  ) {}

  async execute(userId: string, mime: SubmittedBytes, envelopeRecipients: string[]): Promise<MessageResponse> {
    let request: SendMessageDto;
    let attachmentBytes: number;
    try {
      ({ request, attachmentBytes } = await this.sendRequestOf(mime, envelopeRecipients));
    } catch (refusal) {
      // Counted like any request, refused or not; but the refusal is the answer, whatever the
      // count says or however the database fares: one verdict for one message (issue 33).
      await this.budget.spendOne(userId).catch(() => undefined);
      throw refusal;
    }
    // Like the REST guard, which counts a request before its body is stored.
    await this.budget.spendOne(userId);
    const { message } = await this.intake.accept(userId, {
      ...request,
      mime: { raw: await mime.read(), attachmentBytes },
    });
    // As an API change is (ReadScopeInterceptor): the user's next list over the API shows it. A
    // failed mark fails no message: only a lagging replica's reads through another process could miss it.
    await this.recentWrites.note(userId).catch(() => undefined);
    return message;
  }

  /** The send body the message amounts to, validated as a REST body is; a refusal throws the REST API's error. */
  private async sendRequestOf(
    mime: SubmittedBytes,
    envelopeRecipients: string[],
  ): Promise<{ request: SendMessageDto; attachmentBytes: number }> {
    // Parsed from the stream and only then read whole, so that the two never weigh at once.
    const { body, attachmentBytes } = await readSubmittedSendBody(mime.stream(), envelopeRecipients);
    // What a REST body is checked for before its fields: a NUL that only decoding made (=00, an
    // encoded word) is refused here, by field, as the raw byte is at DATA.
    inspectJson(body);
    const request = (await this.validation.transform(body, {
      type: 'body',
      metatype: SendMessageDto,
    })) as SendMessageDto;
    return { request, attachmentBytes };
  }
}
