import { Controller, Get, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentUser } from '../auth';
import { RequiresScope } from '../auth';
import type { AuthUser } from '../auth';
import { ApiProblemResponses } from '../platform/problem/api-problem-responses.decorator';
import { StatsQuery } from './dto/stats.query';
import { StatsResponse } from './dto/stats.response';
import { MessageStatsService } from './message-stats.service';

@ApiTags('messages')
@ApiBearerAuth()
@Controller('user/stats')
export class MessageStatsController {
  constructor(private readonly service: MessageStatsService) {}

  @Get()
  @RequiresScope('read')
  @ApiOperation({
    summary: 'Your messages per day: accepted, by status now, with bounce and complaint rates',
    description:
      "Messages by the UTC day they were accepted and their status now, every day of the range (at most 366; default the last 30 to today). A day's `byStatus[s]` equals the list's `total` for that day with `statuses=s`.",
  })
  @ApiOkResponse({ type: StatsResponse })
  @ApiProblemResponses(400, 401, 429)
  stats(@CurrentUser() user: AuthUser, @Query() query: StatsQuery): Promise<StatsResponse> {
    return this.service.stats(user.id, query);
  }
}
