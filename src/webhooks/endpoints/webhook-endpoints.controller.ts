import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Res, UseInterceptors } from '@nestjs/common';
import type { Response } from 'express';
import {
  ApiAcceptedResponse,
  ApiBearerAuth,
  ApiBody,
  ApiCreatedResponse,
  ApiExtraModels,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { CurrentUser } from '../../auth';
import { RequiresScope } from '../../auth';
import type { AuthUser } from '../../auth';
import { JsonBodyInterceptor } from '../../platform/http/json-body/json-body.interceptor';
import { ApiProblemResponses } from '../../platform/problem/api-problem-responses.decorator';
import { EVENT_PAYLOAD_MODELS } from '../dto/event-payloads.dto';
import {
  CreatedWebhookEndpointResponse,
  CreateWebhookEndpointDto,
  EndpointSecretResponse,
  EndpointTestResponse,
  UpdateWebhookEndpointDto,
  WebhookEndpointListResponse,
  WebhookEndpointResponse,
} from './dto/webhook-endpoint.dto';
import { MAX_ENDPOINTS_PER_USER, WebhookEndpointsService } from './webhook-endpoints.service';

const CREATE_EXAMPLES = {
  everything: { summary: 'Every event', value: { url: 'https://hooks.your-app.example/mailroom' } },
  some: {
    summary: 'Some event types',
    value: {
      url: 'https://hooks.your-app.example/bounces',
      events: ['message.bounced', 'recipient.bounced', 'suppression.created'],
      description: 'Bounces to the CRM',
    },
  },
};
const PATCH_EXAMPLES = {
  enable: { summary: 'Enable again', value: { enabled: true } },
  events: { summary: 'Other event types', value: { events: ['domain.verified', 'domain.pending'] } },
};

@ApiTags('webhooks')
@ApiBearerAuth()
@ApiExtraModels(...EVENT_PAYLOAD_MODELS)
@Controller('user/webhook-endpoints')
export class WebhookEndpointsController {
  constructor(private readonly service: WebhookEndpointsService) {}

  @Post()
  @RequiresScope('keys')
  // Bodies are read per route, after authentication.
  @UseInterceptors(JsonBodyInterceptor)
  @ApiOperation({
    summary: 'Register an endpoint for the events of your account; its signing secret is in the answer',
    description:
      "Each event is POSTed to every enabled endpoint that subscribes to its type, signed with that endpoint's secret (Standard Webhooks). The event payloads are the `*Event` schemas of this document.",
  })
  @ApiBody({ type: CreateWebhookEndpointDto, examples: CREATE_EXAMPLES })
  @ApiCreatedResponse({
    type: CreatedWebhookEndpointResponse,
    headers: { Location: { description: 'The endpoint: /user/webhook-endpoints/{id}', schema: { type: 'string' } } },
  })
  @ApiProblemResponses(
    400,
    401,
    {
      status: 409,
      when: `You have ${MAX_ENDPOINTS_PER_USER} endpoints already`,
      detail: `You have ${MAX_ENDPOINTS_PER_USER} webhook endpoints, the most one user may have; delete one to add another.`,
    },
    415,
    429,
  )
  async create(
    @CurrentUser() user: AuthUser,
    @Body() body: CreateWebhookEndpointDto,
    @Res({ passthrough: true }) response: Response,
  ): Promise<CreatedWebhookEndpointResponse> {
    const endpoint = await this.service.create(user, body);
    response.location(`/user/webhook-endpoints/${endpoint.id}`);
    return endpoint;
  }

  @Get()
  @RequiresScope('read')
  @ApiOperation({ summary: 'Your webhook endpoints, oldest first (without their secrets)' })
  @ApiOkResponse({ type: WebhookEndpointListResponse })
  @ApiProblemResponses(401, 429)
  list(@CurrentUser() user: AuthUser): Promise<WebhookEndpointListResponse> {
    return this.service.list(user.id);
  }

  @Get(':id')
  @RequiresScope('read')
  @ApiOperation({ summary: 'One webhook endpoint (without its secret)' })
  @ApiOkResponse({ type: WebhookEndpointResponse })
  @ApiProblemResponses(401, 404, 429)
  get(@CurrentUser() user: AuthUser, @Param('id') id: string): Promise<WebhookEndpointResponse> {
    return this.service.get(user.id, id);
  }

  @Get(':id/secret')
  @RequiresScope('keys')
  @ApiOperation({ summary: "The endpoint's signing secret" })
  @ApiOkResponse({ type: EndpointSecretResponse })
  @ApiProblemResponses(401, 404, 429)
  secret(@CurrentUser() user: AuthUser, @Param('id') id: string): Promise<EndpointSecretResponse> {
    return this.service.secret(user.id, id);
  }

  @Patch(':id')
  @RequiresScope('keys')
  @UseInterceptors(JsonBodyInterceptor)
  @ApiOperation({
    summary: 'Change the URL, event types, description, or enable or disable it',
    description: 'A disabled endpoint is sent nothing, and events that happen meanwhile are not kept for it.',
  })
  @ApiBody({ type: UpdateWebhookEndpointDto, examples: PATCH_EXAMPLES })
  @ApiOkResponse({ type: WebhookEndpointResponse })
  @ApiProblemResponses(400, 401, 404, 415, 429)
  update(
    @CurrentUser() user: AuthUser,
    @Param('id') id: string,
    @Body() body: UpdateWebhookEndpointDto,
  ): Promise<WebhookEndpointResponse> {
    return this.service.update(user, id, body);
  }

  @Delete(':id')
  @RequiresScope('keys')
  @HttpCode(204)
  @ApiOperation({ summary: 'Delete the endpoint and its delivery log; no attempt to it starts after the answer' })
  @ApiNoContentResponse({ description: 'Deleted' })
  @ApiProblemResponses(401, 404, 429)
  remove(@CurrentUser() user: AuthUser, @Param('id') id: string): Promise<void> {
    return this.service.remove(user, id);
  }

  @Post(':id/rotate-secret')
  @RequiresScope('keys')
  @HttpCode(200)
  @ApiOperation({
    summary: 'A new signing secret; for 24 hours each request carries signatures by both',
    description: '`webhook-signature` is `v1,<new> v1,<old>` until the old secret expires, then `v1,<new>`.',
  })
  @ApiOkResponse({ type: EndpointSecretResponse })
  @ApiProblemResponses(401, 404, 429)
  rotateSecret(@CurrentUser() user: AuthUser, @Param('id') id: string): Promise<EndpointSecretResponse> {
    return this.service.rotateSecret(user, id);
  }

  @Post(':id/test')
  @RequiresScope('keys')
  @HttpCode(202)
  @ApiOperation({ summary: 'Send an endpoint.test event to this endpoint alone' })
  @ApiAcceptedResponse({ type: EndpointTestResponse })
  @ApiProblemResponses(
    401,
    404,
    {
      status: 409,
      when: 'The endpoint is disabled',
      detail: 'Webhook endpoint 7d4c3a4e-2f7b-4c8e-9a51-3f0f2b9d6c11 is disabled; enable it to test it.',
    },
    429,
  )
  test(@CurrentUser() user: AuthUser, @Param('id') id: string): Promise<EndpointTestResponse> {
    return this.service.test(user.id, id);
  }
}
