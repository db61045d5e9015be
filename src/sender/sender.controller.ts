import { Body, Controller, Post, Res, UseInterceptors } from '@nestjs/common';
import {
  ApiBearerAuth,
  ApiBody,
  ApiConsumes,
  ApiCreatedResponse,
  ApiHeader,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import type { Response } from 'express';
import { CurrentUser } from '../auth';
import { RequiresScope } from '../auth';
import type { AuthUser } from '../auth';
import { JsonBodyInterceptor } from '../platform/http/json-body/json-body.interceptor';
import { ApiProblemResponses } from '../platform/problem/api-problem-responses.decorator';
import { IdempotencyKeyInterceptor } from './idempotency/idempotency-key.interceptor';
import { IdempotencyKey, IdempotencyKeyHeader } from './idempotency/idempotency-key.header';
import { MessageResponse } from '../messages';
import { MessageBudget } from '../auth';
import { BatchResponse, SendBatchDto } from './dto/send-batch.dto';
import { SEND_BATCH_EXAMPLES } from './dto/send-batch.examples';
import { SendMessageDto } from './dto/send-message.dto';
import { SEND_MESSAGE_EXAMPLES } from './dto/send-message.examples';
import { MessageIntake } from './intake/message-intake';

@ApiTags('sender')
@ApiBearerAuth()
@Controller('sender')
export class SenderController {
  constructor(
    private readonly intake: MessageIntake,
    private readonly budget: MessageBudget,
  ) {}

  @Post('send')
  @RequiresScope('send')
  @UseInterceptors(IdempotencyKeyInterceptor, JsonBodyInterceptor)
  @ApiOperation({
    summary: 'Send an email',
    description:
      'Stores the message as `queued` for delivery, or as `scheduled` until a future `scheduledAt`, and returns it.',
  })
  @ApiConsumes('application/json')
  @ApiBody({ type: SendMessageDto, examples: SEND_MESSAGE_EXAMPLES })
  @ApiHeader({
    name: 'Idempotency-Key',
    required: false,
    description:
      'Up to 255 characters, kept 24 h: a repeat with the same body gets the first answer and sends nothing again',
  })
  @ApiCreatedResponse({
    type: MessageResponse,
    headers: {
      Location: { description: 'The message: /user/messages/{id}', schema: { type: 'string' } },
      'Idempotent-Replayed': {
        description: '`true` when this is the stored answer to an earlier request',
        schema: { type: 'string', enum: ['true'] },
      },
    },
  })
  @ApiProblemResponses(400, 401, 409, 413, 415, 422, 429)
  async send(
    @CurrentUser() user: AuthUser,
    @Body() body: SendMessageDto,
    @IdempotencyKey() idempotencyKey: IdempotencyKeyHeader,
    @Res({ passthrough: true }) response: Response,
  ): Promise<MessageResponse> {
    const { message, replayed } = await this.intake.accept(user.id, body, idempotencyKey.key());
    response.location(`/user/messages/${message.id}`);
    if (replayed) response.setHeader('Idempotent-Replayed', 'true');
    return message;
  }

  @Post('send/batch')
  @RequiresScope('send')
  @UseInterceptors(IdempotencyKeyInterceptor, JsonBodyInterceptor)
  @ApiOperation({
    summary: 'Send 1–100 emails at once',
    description:
      'Every message is validated first (errors name `messages[i].<field>`), then all are stored (as `queued`, or `scheduled` for a later `scheduledAt`) in one transaction, or none is. ' +
      'A batch of N messages counts as N requests against RATE_LIMIT_PER_MINUTE; one that does not fit in what is left of the minute is refused whole (429). ' +
      'An Idempotency-Key covers the whole batch.',
  })
  @ApiConsumes('application/json')
  @ApiBody({ type: SendBatchDto, examples: SEND_BATCH_EXAMPLES })
  @ApiHeader({
    name: 'Idempotency-Key',
    required: false,
    description:
      'Up to 255 characters, kept 24 h: a repeat with the same body gets the first answer and sends nothing again',
  })
  @ApiCreatedResponse({
    type: BatchResponse,
    headers: {
      'Idempotent-Replayed': {
        description: '`true` when this is the stored answer to an earlier request',
        schema: { type: 'string', enum: ['true'] },
      },
    },
  })
  @ApiProblemResponses(400, 401, 409, 413, 415, 422, 429)
  async sendBatch(
    @CurrentUser() user: AuthUser,
    @Body() body: SendBatchDto,
    @IdempotencyKey() idempotencyKey: IdempotencyKeyHeader,
    @Res({ passthrough: true }) response: Response,
  ): Promise<BatchResponse> {
    const key = idempotencyKey.key();
    // Spent once the batch is known to be stored: a refused batch or a replay costs one request.
    const spend = () => this.budget.spend(user.id, body.messages.length, response);
    const { messages, replayed } = await this.intake.acceptMany(user.id, body.messages, key, spend);
    if (replayed) response.setHeader('Idempotent-Replayed', 'true');
    return { messages };
  }
}
