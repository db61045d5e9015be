import { Controller, Get, Param, Res, StreamableFile } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { CurrentUser } from '../auth';
import { RequiresScope } from '../auth';
import type { AuthUser } from '../auth';
import { ApiBytesResponse, sendBytes } from '../platform/http/byte-response';
import { ApiProblemResponses } from '../platform/problem/api-problem-responses.decorator';
import { MessageContentResponse } from './dto/message-content.response';
import { MessageContentService } from './message-content.service';

@ApiTags('messages')
@ApiBearerAuth()
@Controller('user/messages')
export class MessageContentController {
  constructor(private readonly service: MessageContentService) {}

  @Get(':id/content')
  @RequiresScope('read')
  @ApiOperation({
    summary: 'What one of your messages says: its HTML, text, custom headers and attachments',
    description:
      'The body as accepted (`text` as given, or as derived from the HTML for delivery); for a message submitted over SMTP, what its MIME carries.',
  })
  @ApiOkResponse({ type: MessageContentResponse })
  @ApiProblemResponses(401, 404, 429)
  content(@CurrentUser() user: AuthUser, @Param('id') id: string): Promise<MessageContentResponse> {
    return this.service.content(user.id, id);
  }

  @Get(':id/attachments/:index')
  @RequiresScope('read')
  @ApiOperation({
    summary: "One of a message's attachments, as a download",
    description: '`index` as listed by `GET /user/messages/{id}/content`, from 0. Served with its stored Content-Type.',
  })
  @ApiBytesResponse('application/octet-stream', 'The attachment bytes')
  @ApiProblemResponses(
    401,
    {
      status: 404,
      when: 'None of your messages has this id, or it has no attachment at this index',
      detail: 'Attachment 3 of message 0190f3a4-7b1c-7e2a-9d4e-5f6a7b8c9d0e does not exist.',
    },
    429,
  )
  async attachment(
    @CurrentUser() user: AuthUser,
    @Param('id') id: string,
    @Param('index') index: string,
    @Res({ passthrough: true }) response: Response,
  ): Promise<StreamableFile> {
    return sendBytes(response, await this.service.attachment(user.id, id, index));
  }

  @Get(':id/raw')
  @RequiresScope('read')
  @ApiOperation({
    summary: 'One of your messages as an .eml file',
    description:
      'As composed for delivery, by the same code: without what differs per recipient copy (List-Unsubscribe) and without a DKIM signature; Bcc never appears. Dated when it was accepted.',
  })
  @ApiBytesResponse('message/rfc822', 'The message (RFC 5322)')
  @ApiProblemResponses(401, 404, 429)
  async raw(
    @CurrentUser() user: AuthUser,
    @Param('id') id: string,
    @Res({ passthrough: true }) response: Response,
  ): Promise<StreamableFile> {
    return sendBytes(response, await this.service.raw(user.id, id));
  }
}
