import { Injectable } from '@nestjs/common';
import type { Readable } from 'node:stream';
import { inspectJson } from '../common/json-body/inspect-json';
import { createValidationPipe } from '../common/validation/validation.pipe';
import { MessageIntake } from '../intake/message-intake';
import type { MessageResponse } from '../messages/dto/message.response';
import { MessageBudget } from '../rate-limit/message-budget';
import { SendMessageDto } from '../sender/dto/send-message.dto';
import { readSubmittedSendBody } from './submitted-send-body';

/** A submitted message's bytes, read twice: streamed through the parser, then whole for storage. */
export interface SubmittedBytes {
  stream(): Readable;
  read(): Promise<Buffer>;
}

/**
 * One message submitted over SMTP, taken in exactly as a REST send would be (SPEC §10): it spends
 * one request of the user's minute, its send body passes the REST body's own validation, and the
 * intake stores it (with its MIME as received) or refuses it. Refusals are the REST API's
 * ProblemErrors; the SMTP server says them in SMTP.
 */
@Injectable()
export class SubmitMessageUseCase {
  private readonly validation = createValidationPipe();

  constructor(
    private readonly intake: MessageIntake,
    private readonly budget: MessageBudget,
  ) {}

  async execute(userId: string, mime: SubmittedBytes, envelopeRecipients: string[]): Promise<MessageResponse> {
    // Like the REST guard, which counts a request before reading its body, refused or not.
    await this.budget.spendOne(userId);
    // Parsed from the stream and only then read whole, so that the two never weigh at once.
    const { body, attachmentBytes } = await readSubmittedSendBody(mime.stream(), envelopeRecipients);
    // What a REST body is checked for before its fields: a NUL that only decoding made (=00, an
    // encoded word) is refused here, by field, as the raw byte is at DATA.
    inspectJson(body);
    const request = (await this.validation.transform(body, {
      type: 'body',
      metatype: SendMessageDto,
    })) as SendMessageDto;
    const { message } = await this.intake.accept(userId, {
      ...request,
      mime: { raw: await mime.read(), attachmentBytes },
    });
    return message;
  }
}
