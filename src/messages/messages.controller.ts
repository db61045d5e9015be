import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiProblemResponses } from '../common/problem/api-problem-responses.decorator';
import { CurrentUser } from '../auth/current-user.decorator';
import type { AuthUser } from '../auth/current-user.decorator';
import { ListMessagesQuery } from './dto/list-messages.query';
import { MessagePageResponse } from './dto/message-page.response';
import { MessageResponse } from './dto/message.response';
import { MessagesService } from './messages.service';

@ApiTags('messages')
@ApiBearerAuth()
@Controller('user/messages')
export class MessagesController {
  constructor(private readonly service: MessagesService) {}

  @Get()
  @ApiOperation({ summary: 'List your messages, newest first, with filters and pages' })
  @ApiOkResponse({ type: MessagePageResponse })
  @ApiProblemResponses(400, 401, 429)
  list(@CurrentUser() user: AuthUser, @Query() query: ListMessagesQuery): Promise<MessagePageResponse> {
    return this.service.list(user.id, query);
  }

  @Get(':id')
  @ApiOperation({ summary: 'One of your messages, with its status history' })
  @ApiOkResponse({ type: MessageResponse })
  @ApiProblemResponses(401, 404, 429)
  get(@CurrentUser() user: AuthUser, @Param('id') id: string): Promise<MessageResponse> {
    return this.service.get(user.id, id);
  }
}
