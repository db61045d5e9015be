import { Body, Controller, Delete, Get, HttpCode, Post, Req, Res, UseInterceptors } from '@nestjs/common';
import { ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { AppConfig } from '../../platform/config/app-config';
import { clientAddressOfRequest } from '../../platform/http/client-address';
import { JsonBodyInterceptor } from '../../platform/http/json-body/json-body.interceptor';
import { Public } from '../../platform/http/public.decorator';
import { ApiProblemResponses } from '../../platform/problem/api-problem-responses.decorator';
import type { AuthUser } from '../auth-user';
import { CurrentUser } from '../current-user.decorator';
import { OpenToEveryApiKey } from '../requires-scope.decorator';
import { SessionResponse, SignInDto, SwitchAccountDto } from './dto/session.dto';
import { clearedSessionCookie, sessionCookie } from './session-cookie';
import { SessionsService } from './sessions.service';

/** Signing in to the console as a member (docs/teams.md#signing-in). */
@ApiTags('members')
@Controller('session')
export class SessionsController {
  constructor(
    private readonly service: SessionsService,
    private readonly config: AppConfig,
  ) {}

  @Post()
  @Public()
  @HttpCode(200)
  @UseInterceptors(JsonBodyInterceptor)
  @ApiOperation({ summary: 'Sign in with email and password: the answer sets the session cookie' })
  @ApiOkResponse({ type: SessionResponse })
  @ApiProblemResponses(
    400,
    {
      status: 401,
      when: 'An unknown address or a wrong password',
      detail: 'The email address or the password is wrong.',
    },
    415,
    {
      status: 429,
      when: '10 failed sign-ins for the address, or 50 from the client, in 15 minutes',
      detail: 'Too many failed sign-ins; retry after 840 s.',
    },
  )
  async signIn(
    @Body() body: SignInDto,
    @Req() request: Request,
    @Res({ passthrough: true }) response: Response,
  ): Promise<SessionResponse> {
    const session = await this.service.signIn(body, clientAddressOfRequest(request, this.config.trustedProxies));
    response.setHeader('Set-Cookie', sessionCookie(session.token, this.config));
    return session.body;
  }

  @Post('account')
  @HttpCode(200)
  @OpenToEveryApiKey()
  @UseInterceptors(JsonBodyInterceptor)
  @ApiOperation({
    summary: "Switch to another account where the signed-in member's address is an active member: a new session cookie",
  })
  @ApiOkResponse({ type: SessionResponse })
  @ApiProblemResponses(
    400,
    401,
    {
      status: 403,
      when: 'A cookie-authenticated request without Origin equal to PUBLIC_URL',
      detail:
        'A change made with the session cookie must carry Origin: https://mail.example.com (cross-site request forgery).',
    },
    {
      status: 404,
      when: "The signed-in member's address is no active member of that account",
      detail: 'An active member grace@example.com of the account acme does not exist.',
    },
    415,
  )
  async switchAccount(
    @CurrentUser() user: AuthUser,
    @Body() body: SwitchAccountDto,
    @Res({ passthrough: true }) response: Response,
  ): Promise<SessionResponse> {
    const session = await this.service.switchAccount(user, body);
    response.setHeader('Set-Cookie', sessionCookie(session.token, this.config));
    return session.body;
  }

  @Get()
  @OpenToEveryApiKey()
  @ApiOperation({ summary: 'The signed-in member, its account and role' })
  @ApiOkResponse({ type: SessionResponse })
  @ApiProblemResponses(401)
  current(@CurrentUser() user: AuthUser): Promise<SessionResponse> {
    return this.service.current(user);
  }

  @Delete()
  @HttpCode(204)
  @OpenToEveryApiKey()
  @ApiOperation({ summary: 'Sign out: the session ends on every process at once' })
  @ApiNoContentResponse({ description: 'Signed out' })
  @ApiProblemResponses(401, {
    status: 403,
    when: 'A cookie-authenticated request without Origin equal to PUBLIC_URL',
    detail:
      'A change made with the session cookie must carry Origin: https://mail.example.com (cross-site request forgery).',
  })
  async signOut(@CurrentUser() user: AuthUser, @Res({ passthrough: true }) response: Response): Promise<void> {
    await this.service.signOut(user);
    response.setHeader('Set-Cookie', clearedSessionCookie(this.config));
  }
}
