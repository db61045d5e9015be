import { Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiAcceptedResponse, ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentUser } from '../auth';
import { RequiresScope } from '../auth';
import type { AuthUser } from '../auth';
import { ApiProblemResponses } from '../platform/problem/api-problem-responses.decorator';
import {
  ListWebhookEventsQuery,
  WebhookDeliveryDetailsResponse,
  WebhookEventPageResponse,
  WebhookSecretResponse,
} from './dto/webhook-event.dto';
import { WebhookEventsService } from './webhook-events.service';
import { WebhookSigner } from './webhook-signer';

@ApiTags('webhooks')
@ApiBearerAuth()
@Controller('user')
export class WebhooksController {
  constructor(
    private readonly signer: WebhookSigner,
    private readonly events: WebhookEventsService,
  ) {}

  @Get('webhook-secret')
  @RequiresScope('keys')
  @ApiOperation({ summary: 'Your webhook signing secret (Standard Webhooks, whsec_…)' })
  @ApiOkResponse({ type: WebhookSecretResponse })
  @ApiProblemResponses(401, 429)
  secret(@CurrentUser() user: AuthUser): WebhookSecretResponse {
    return { secret: this.signer.secretFor(user.id) };
  }

  @Get('webhook-deliveries')
  @RequiresScope('read')
  @ApiOperation({ summary: 'Your webhook events and each attempt to deliver them, newest first' })
  @ApiOkResponse({ type: WebhookEventPageResponse })
  @ApiProblemResponses(400, 401, 429)
  list(@CurrentUser() user: AuthUser, @Query() query: ListWebhookEventsQuery): Promise<WebhookEventPageResponse> {
    return this.events.list(user.id, query);
  }

  @Get('webhook-deliveries/:id')
  @RequiresScope('read')
  @ApiOperation({
    summary: 'One webhook delivery: the body it POSTs and the first bytes of each answer',
    description:
      "The list item, with `request.body` (the JSON posted, exactly) and each attempt's `responseBody`: the first 1,024 bytes of the receiver's answer, as UTF-8.",
  })
  @ApiOkResponse({ type: WebhookDeliveryDetailsResponse })
  @ApiProblemResponses(401, 404, 429)
  details(@CurrentUser() user: AuthUser, @Param('id') id: string): Promise<WebhookDeliveryDetailsResponse> {
    return this.events.details(user.id, id);
  }

  @Post('webhook-deliveries/:id/replay')
  @RequiresScope('send')
  @HttpCode(202)
  @ApiOperation({ summary: 'Send an event again, with the same webhook-id' })
  @ApiAcceptedResponse({ schema: { example: { id: '01a1ffa8-9fc5-732e-a326-ec80b8d3887f', state: 'pending' } } })
  @ApiProblemResponses(401, 404, 409, 429)
  replay(@CurrentUser() user: AuthUser, @Param('id') id: string): Promise<{ id: string; state: 'pending' }> {
    return this.events.replay(user.id, id);
  }
}
