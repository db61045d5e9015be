import { Body, Controller, Post, Res, UseInterceptors } from '@nestjs/common';
import { ApiBearerAuth, ApiBody, ApiConsumes, ApiCreatedResponse, ApiHeader, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { CurrentUser } from '../auth/current-user.decorator';
import type { AuthUser } from '../auth/current-user.decorator';
import { JsonBodyInterceptor } from '../common/json-body/json-body.interceptor';
import { ApiProblemResponses } from '../common/problem/api-problem-responses.decorator';
import { IdempotencyKeyInterceptor } from '../idempotency/idempotency-key.interceptor';
import { IdempotencyKey, IdempotencyKeyHeader } from '../idempotency/idempotency-key.header';
import { MessageResponse } from '../messages/dto/message.response';
import { SendMessageDto } from './dto/send-message.dto';
import { SEND_MESSAGE_EXAMPLES } from './dto/send-message.examples';
import { MessageIntake } from '../intake/message-intake';

@ApiTags('sender')
@ApiBearerAuth()
@Controller('sender')
export class SenderController {
  constructor(private readonly intake: MessageIntake) {}

  @Post('send')
  @UseInterceptors(IdempotencyKeyInterceptor, JsonBodyInterceptor)
  @ApiOperation({ summary: 'Send an email', description: 'Stores the message as `queued` for delivery, or as `scheduled` until a future `scheduledAt`, and returns it.' })
  @ApiConsumes('application/json')
  @ApiBody({ type: SendMessageDto, examples: SEND_MESSAGE_EXAMPLES })
  @ApiHeader({
    name: 'Idempotency-Key',
    required: false,
    description: 'Up to 255 characters, kept 24 h: a repeat with the same body gets the first answer and sends nothing again',
  })
  @ApiCreatedResponse({
    type: MessageResponse,
    headers: {
      Location: { description: 'The message: /user/messages/{id}', schema: { type: 'string' } },
      'Idempotent-Replayed': { description: '`true` when this is the stored answer to an earlier request', schema: { type: 'string', enum: ['true'] } },
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
}
