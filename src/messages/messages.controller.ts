import { Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiProblemResponses } from '../platform/problem/api-problem-responses.decorator';
import { CurrentUser } from '../auth';
import { RequiresScope } from '../auth';
import type { AuthUser } from '../auth';
import { ListMessagesQuery } from './dto/list-messages.query';
import { MessagePageResponse } from './dto/message-page.response';
import { MessageResponse } from './dto/message.response';
import { CancelMessageUseCase } from './cancel-message.use-case';
import { MessagesService } from './messages.service';

@ApiTags('messages')
@ApiBearerAuth()
@Controller('user/messages')
export class MessagesController {
  constructor(
    private readonly service: MessagesService,
    private readonly cancelMessage: CancelMessageUseCase,
  ) {}

  @Get()
  @RequiresScope('read')
  @ApiOperation({ summary: 'List your messages, newest first, with filters and pages' })
  @ApiOkResponse({ type: MessagePageResponse })
  @ApiProblemResponses(400, 401, 429)
  list(@CurrentUser() user: AuthUser, @Query() query: ListMessagesQuery): Promise<MessagePageResponse> {
    return this.service.list(user.id, query);
  }

  @Get(':id')
  @RequiresScope('read')
  @ApiOperation({ summary: 'One of your messages, with its status history' })
  @ApiOkResponse({ type: MessageResponse })
  @ApiProblemResponses(401, 404, 429)
  get(@CurrentUser() user: AuthUser, @Param('id') id: string): Promise<MessageResponse> {
    return this.service.get(user.id, id);
  }

  @Post(':id/cancel')
  @RequiresScope('send')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Cancel one of your messages before it is sent',
    description:
      'From `scheduled`, `queued` or `deferred` to `canceled`: nothing is delivered afterwards. Returns the message with its status history.',
  })
  @ApiOkResponse({ type: MessageResponse })
  @ApiProblemResponses(
    401,
    404,
    {
      status: 409,
      when: 'The message is past the point of canceling: an attempt is under way (`sending`), or it is final',
      detail:
        'Message 0190f3a4-7b1c-7e2a-9d4e-5f6a7b8c9d0e is sent; only a message that is scheduled, queued or deferred can be canceled.',
    },
    429,
  )
  cancel(@CurrentUser() user: AuthUser, @Param('id') id: string): Promise<MessageResponse> {
    return this.cancelMessage.execute(user, id);
  }
}
