import { Controller, Get, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { pageEnvelope } from '../../platform/paging';
import { ApiProblemResponses } from '../../platform/problem/api-problem-responses.decorator';
import type { AuthUser } from '../auth-user';
import { CurrentUser } from '../current-user.decorator';
import { ClosedToApiKeys, OwnersAndAdminsOnly } from '../requires-scope.decorator';
import type { AuditAction } from './audit-actions';
import { AuditLogRepository } from './audit-log.repository';
import { AuditLogEntryResponse, AuditLogPageResponse, ListAuditLogQuery } from './dto/audit-log.dto';
import { AuditLogEntryEntity } from './entities/audit-log-entry.entity';

/**
 * GET /user/audit-log (docs/teams.md#audit-log): owner/admin only. That is a JWT (its holder has the
 * signing key) or an owner's or admin's session; never an API key, since a developer, whose role has
 * the scope `keys`, could make itself one.
 */
const NOT_OWNER_OR_ADMIN = {
  status: 403,
  when: 'An API key, or a member who is neither owner nor admin',
  detail: 'The role developer may not GET /user/audit-log; owners and admins may.',
} as const;

@ApiTags('audit-log')
@ApiBearerAuth()
@Controller('user/audit-log')
export class AuditLogController {
  constructor(private readonly entries: AuditLogRepository) {}

  @Get()
  @ClosedToApiKeys()
  @OwnersAndAdminsOnly()
  @ApiOperation({ summary: "Your account's changes, newest first: who made each, from where, to what" })
  @ApiOkResponse({ type: AuditLogPageResponse })
  @ApiProblemResponses(400, 401, NOT_OWNER_OR_ADMIN, 429)
  async list(@CurrentUser() user: AuthUser, @Query() query: ListAuditLogQuery): Promise<AuditLogPageResponse> {
    const [entries, total] = await this.entries.page(user.id, query, (query.page - 1) * query.take, query.take);
    return {
      entries: entries.map(map),
      ...pageEnvelope(query, total),
      actor: query.actor ?? null,
      action: query.action ?? null,
    };
  }
}

function map(entry: AuditLogEntryEntity): AuditLogEntryResponse {
  return {
    id: entry.id,
    at: entry.at.toISOString(),
    actor: { type: entry.actorType, id: entry.actorId, label: entry.actorLabel },
    action: entry.action as AuditAction,
    target: { type: entry.targetType, id: entry.targetId },
    clientAddress: entry.clientAddress,
    detail: entry.detail,
  };
}
