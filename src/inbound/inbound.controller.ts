import { Controller, Get, Param, Query, Res, StreamableFile } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { CurrentUser } from '../auth';
import { RequiresScope } from '../auth';
import type { AuthUser } from '../auth';
import { ApiBytesResponse, sendBytes } from '../platform/http/byte-response';
import { ApiProblemResponses } from '../platform/problem/api-problem-responses.decorator';
import { ListInboundQuery } from './dto/list-inbound.query';
import { InboundMailResponse, InboundPageResponse } from './dto/inbound.response';
import { InboundService } from './inbound.service';

@ApiTags('inbound')
@ApiBearerAuth()
@Controller('user/inbound')
export class InboundController {
  constructor(private readonly service: InboundService) {}

  @Get()
  @RequiresScope('read')
  @ApiOperation({
    summary: 'Mail received at your receiving domains, newest first, with filters and pages',
    description:
      'Paged and filtered as `GET /user/messages`; `total` is exact. Turn receiving on with `PATCH /domains/{id}`.',
  })
  @ApiOkResponse({ type: InboundPageResponse })
  @ApiProblemResponses(400, 401, 429)
  list(@CurrentUser() user: AuthUser, @Query() query: ListInboundQuery): Promise<InboundPageResponse> {
    return this.service.list(user.id, query);
  }

  @Get(':id')
  @RequiresScope('read')
  @ApiOperation({ summary: 'One received mail, with its text, HTML and every header field' })
  @ApiOkResponse({ type: InboundMailResponse })
  @ApiProblemResponses(401, 404, 429)
  get(@CurrentUser() user: AuthUser, @Param('id') id: string): Promise<InboundMailResponse> {
    return this.service.get(user.id, id);
  }

  @Get(':id/attachments/:index')
  @RequiresScope('read')
  @ApiOperation({
    summary: 'The bytes of one attachment of a received mail',
    description:
      'With its stored Content-Type, `Content-Disposition: attachment` (its file name, RFC 6266), `X-Content-Type-Options: nosniff` and `Content-Security-Policy: sandbox`. An index out of range: 404.',
  })
  @ApiBytesResponse('application/octet-stream', 'The attachment bytes')
  @ApiProblemResponses(401, 404, 429)
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
    summary: 'The received mail as it arrived (message/rfc822), as the attachment `<id>.eml`',
  })
  @ApiBytesResponse('message/rfc822', 'The mail as it arrived (RFC 5322)')
  @ApiProblemResponses(401, 404, 429)
  async raw(
    @CurrentUser() user: AuthUser,
    @Param('id') id: string,
    @Res({ passthrough: true }) response: Response,
  ): Promise<StreamableFile> {
    return sendBytes(response, await this.service.raw(user.id, id));
  }
}
