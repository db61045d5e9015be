import { Body, Controller, Post, Res, UseInterceptors } from '@nestjs/common';
import { ApiBearerAuth, ApiConsumes, ApiCreatedResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { CurrentUser } from '../auth/current-user.decorator';
import type { AuthUser } from '../auth/current-user.decorator';
import { JsonBodyInterceptor } from '../common/json-body/json-body.interceptor';
import { ApiProblemResponses } from '../common/problem/api-problem-responses.decorator';
import { MessageResponse } from '../messages/dto/message.response';
import { SendMessageDto } from './dto/send-message.dto';
import { SendMessageUseCase } from './send-message.use-case';

@ApiTags('sender')
@ApiBearerAuth()
@Controller('sender')
export class SenderController {
  constructor(private readonly sendMessage: SendMessageUseCase) {}

  @Post('send')
  @UseInterceptors(JsonBodyInterceptor)
  @ApiOperation({ summary: 'Send an email', description: 'Stores the message as `queued` for delivery and returns it.' })
  @ApiConsumes('application/json')
  @ApiCreatedResponse({
    type: MessageResponse,
    headers: { Location: { description: 'The message: /user/messages/{id}', schema: { type: 'string' } } },
  })
  @ApiProblemResponses(400, 401, 413, 415)
  async send(
    @CurrentUser() user: AuthUser,
    @Body() body: SendMessageDto,
    @Res({ passthrough: true }) response: Response,
  ): Promise<MessageResponse> {
    const message = await this.sendMessage.execute(user.id, body);
    response.location(`/user/messages/${message.id}`);
    return message;
  }
}
