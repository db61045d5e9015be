import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, UseInterceptors } from '@nestjs/common';
import {
  ApiBearerAuth,
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { JsonBodyInterceptor } from '../../platform/http/json-body/json-body.interceptor';
import { ApiProblemResponses } from '../../platform/problem/api-problem-responses.decorator';
import type { AuthUser } from '../auth-user';
import { CurrentUser } from '../current-user.decorator';
import { ClosedToApiKeys } from '../requires-scope.decorator';
import { ChangeMemberDto, InviteMemberDto, MemberListResponse, MemberResponse } from './dto/member.dto';
import { MembersService } from './members.service';

const NOT_A_MANAGER = {
  status: 403,
  when: 'An API key, or a member who is neither owner nor admin; an admin touching an owner',
  detail: 'API keys never manage members; use a JWT or sign in as an owner or admin.',
} as const;
const ALREADY_THERE = {
  status: 409,
  when: 'The address is already a member of the account, or invited',
  detail: 'grace@example.com is already a member of this account, or invited.',
} as const;
const LAST_OWNER = {
  status: 409,
  when: 'It would leave the account without an owner',
  detail: 'The account must keep an owner: make another member owner first.',
} as const;

/** An account's members (docs/teams.md#members-and-roles): owners and admins, and JWTs, manage them. */
@ApiTags('members')
@ApiBearerAuth()
@ClosedToApiKeys()
@Controller('user/members')
export class MembersController {
  constructor(private readonly service: MembersService) {}

  @Post()
  @UseInterceptors(JsonBodyInterceptor)
  @ApiOperation({ summary: 'Invite a member: a mail with a link valid 7 days, usable once' })
  @ApiCreatedResponse({ type: MemberResponse })
  @ApiProblemResponses(400, 401, NOT_A_MANAGER, ALREADY_THERE, 415, 429)
  invite(@CurrentUser() user: AuthUser, @Body() body: InviteMemberDto): Promise<MemberResponse> {
    return this.service.invite(user, body);
  }

  @Get()
  @ApiOperation({ summary: "The account's members and pending invitations" })
  @ApiOkResponse({ type: MemberListResponse })
  @ApiProblemResponses(401, NOT_A_MANAGER, 429)
  list(@CurrentUser() user: AuthUser): Promise<MemberListResponse> {
    return this.service.list(user);
  }

  @Patch(':id')
  @UseInterceptors(JsonBodyInterceptor)
  @ApiOperation({ summary: "Change a member's role; the account keeps an owner" })
  @ApiOkResponse({ type: MemberResponse })
  @ApiProblemResponses(400, 401, NOT_A_MANAGER, 404, LAST_OWNER, 415, 429)
  change(
    @CurrentUser() user: AuthUser,
    @Param('id') id: string,
    @Body() body: ChangeMemberDto,
  ): Promise<MemberResponse> {
    return this.service.changeRole(user, id, body);
  }

  @Delete(':id')
  @HttpCode(204)
  @ApiOperation({ summary: 'Remove a member or withdraw an invitation: its sessions end at once' })
  @ApiNoContentResponse({ description: 'Removed' })
  @ApiProblemResponses(401, NOT_A_MANAGER, 404, LAST_OWNER, 429)
  remove(@CurrentUser() user: AuthUser, @Param('id') id: string): Promise<void> {
    return this.service.remove(user, id);
  }
}
