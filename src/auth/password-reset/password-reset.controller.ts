import { Body, Controller, HttpCode, Param, Post, Req, UseInterceptors } from '@nestjs/common';
import { ApiAcceptedResponse, ApiNoContentResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { AppConfig } from '../../platform/config/app-config';
import { clientAddressOfRequest } from '../../platform/http/client-address';
import { JsonBodyInterceptor } from '../../platform/http/json-body/json-body.interceptor';
import { Public } from '../../platform/http/public.decorator';
import { ApiProblemResponses } from '../../platform/problem/api-problem-responses.decorator';
import { RequestPasswordResetDto, ResetPasswordDto } from './dto/password-reset.dto';
import { PasswordResets } from './password-resets';

/** A forgotten password: a link by mail, then a new password through it (docs/teams.md#password-reset). */
@ApiTags('members')
@Public()
@Controller('password-reset')
export class PasswordResetController {
  constructor(
    private readonly resets: PasswordResets,
    private readonly config: AppConfig,
  ) {}

  @Post()
  @HttpCode(202)
  @UseInterceptors(JsonBodyInterceptor)
  @ApiOperation({
    summary: 'Mail a password reset link to the address, in every account where it is an active member',
    description: 'The same answer, in the same time, whether or not the address is a member: the mail goes after it.',
  })
  @ApiAcceptedResponse({
    description:
      'Accepted: a member of that address gets a link valid 30 minutes (none past 10 requests for the address, or 50 by the client, in 15 minutes: the answer is the same)',
  })
  @ApiProblemResponses(400, 415)
  async request(@Body() body: RequestPasswordResetDto, @Req() request: Request): Promise<void> {
    await this.resets.request(body.email, clientAddressOfRequest(request, this.config.trustedProxies));
  }

  @Post(':token')
  @HttpCode(204)
  @UseInterceptors(JsonBodyInterceptor)
  @ApiOperation({ summary: "Set a new password through a reset link's token: every session of the member ends" })
  @ApiNoContentResponse({ description: 'The password is changed; sign in with it' })
  @ApiProblemResponses(
    400,
    {
      status: 404,
      when: 'A used, expired or forged token',
      detail: 'That password reset (used, expired or never made) does not exist.',
    },
    415,
  )
  async reset(@Param('token') token: string, @Body() body: ResetPasswordDto, @Req() request: Request): Promise<void> {
    await this.resets.redeem(token, body.password, clientAddressOfRequest(request, this.config.trustedProxies));
  }
}
