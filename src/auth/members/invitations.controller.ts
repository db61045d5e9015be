import { Body, Controller, HttpCode, Param, Post, Req, Res, UseInterceptors } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { clientAddressOfRequest } from '../../platform/http/client-address';
import { AppConfig } from '../../platform/config/app-config';
import { JsonBodyInterceptor } from '../../platform/http/json-body/json-body.interceptor';
import { Public } from '../../platform/http/public.decorator';
import { ApiProblemResponses } from '../../platform/problem/api-problem-responses.decorator';
import { SessionResponse } from '../sessions/dto/session.dto';
import { sessionCookie } from '../sessions/session-cookie';
import { AcceptInvitationDto } from './dto/member.dto';
import { MembersService } from './members.service';

/** The link of an invitation mail leads here, through the console (docs/teams.md#invitations). */
@ApiTags('members')
@Public()
@Controller('invitations')
export class InvitationsController {
  constructor(
    private readonly service: MembersService,
    private readonly config: AppConfig,
  ) {}

  @Post(':token/accept')
  @HttpCode(200)
  @UseInterceptors(JsonBodyInterceptor)
  @ApiOperation({ summary: 'Accept an invitation: choose a password and be signed in (the session cookie)' })
  @ApiOkResponse({ type: SessionResponse })
  @ApiProblemResponses(400, 404, 415)
  async accept(
    @Param('token') token: string,
    @Body() body: AcceptInvitationDto,
    @Req() request: Request,
    @Res({ passthrough: true }) response: Response,
  ): Promise<SessionResponse> {
    const session = await this.service.accept(token, body, clientAddressOfRequest(request, this.config.trustedProxies));
    response.setHeader('Set-Cookie', sessionCookie(session.token, this.config));
    return session.body;
  }
}
