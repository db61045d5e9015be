import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Res, UseInterceptors } from '@nestjs/common';
import type { Response } from 'express';
import {
  ApiBearerAuth,
  ApiCreatedResponse,
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
import { DomainsService, MAX_DOMAINS_PER_USER } from './domains.service';
import {
  CreateDomainDto,
  DomainListResponse,
  DomainResponse,
  DomainVerificationResponse,
  UpdateDomainDto,
} from './dto/domain.dto';
import { UpdateDomainUseCase } from './update-domain.use-case';
import { VerifyDomainUseCase } from './verify-domain.use-case';

@ApiTags('domains')
@ApiBearerAuth()
@Controller('domains')
export class DomainsController {
  constructor(
    private readonly service: DomainsService,
    private readonly verifyDomain: VerifyDomainUseCase,
    private readonly updateDomain: UpdateDomainUseCase,
  ) {}

  @Post()
  @RequiresScope('send')
  // Bodies are read per route, after authentication.
  @UseInterceptors(JsonBodyInterceptor)
  @ApiOperation({
    summary: 'Register a sending domain: makes its DKIM key and lists the DNS records to publish',
    description:
      'Publish the records, then call verify. Mail whose `sender` is at a verified domain (or a subdomain of one) is DKIM-signed.',
  })
  @ApiCreatedResponse({
    type: DomainResponse,
    headers: { Location: { description: 'The domain: /domains/{id}', schema: { type: 'string' } } },
  })
  @ApiProblemResponses(
    400,
    401,
    {
      status: 409,
      when: `You have registered this name already, or have ${MAX_DOMAINS_PER_USER} domains`,
      detail: 'You have registered mail.example.com already; GET /domains lists it with its records.',
    },
    415,
    429,
  )
  async create(
    @CurrentUser() user: AuthUser,
    @Body() body: CreateDomainDto,
    @Res({ passthrough: true }) response: Response,
  ): Promise<DomainResponse> {
    const domain = await this.service.create(user, body);
    response.location(`/domains/${domain.id}`);
    return domain;
  }

  @Get()
  @RequiresScope('read')
  @ApiOperation({ summary: 'Your sending domains, oldest first' })
  @ApiOkResponse({ type: DomainListResponse })
  @ApiProblemResponses(401, 429)
  list(@CurrentUser() user: AuthUser): Promise<DomainListResponse> {
    return this.service.list(user.id);
  }

  @Get(':id')
  @RequiresScope('read')
  @ApiOperation({ summary: 'One of your sending domains, with its DNS records' })
  @ApiOkResponse({ type: DomainResponse })
  @ApiProblemResponses(401, 404, 429)
  get(@CurrentUser() user: AuthUser, @Param('id') id: string): Promise<DomainResponse> {
    return this.service.get(user.id, id);
  }

  @Post(':id/verify')
  @RequiresScope('send')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Look the DKIM record up in DNS now',
    description:
      'Answers within about 5 s. `verified` when the record publishes the key; otherwise `missing` names each record not found and why.',
  })
  @ApiOkResponse({ type: DomainVerificationResponse })
  @ApiProblemResponses(401, 404, 429)
  verify(@CurrentUser() user: AuthUser, @Param('id') id: string): Promise<DomainVerificationResponse> {
    return this.verifyDomain.execute(user, id);
  }

  @Patch(':id')
  @RequiresScope('send')
  @UseInterceptors(JsonBodyInterceptor)
  @ApiOperation({
    summary: 'Turn receiving mail at this domain on or off',
    description:
      'On a verified domain. While on, the inbound listener takes mail for any address at the domain and `GET /user/inbound` lists it; `dnsRecords` then carries the MX record to publish (`purpose: inbound`). A verify that no longer finds the DKIM record turns it off (`receivingStopped` says why); so does another account turning receiving on for the name when DNS no longer has the DKIM record of this domain.',
  })
  @ApiOkResponse({ type: DomainResponse })
  @ApiProblemResponses(
    400,
    401,
    404,
    {
      status: 409,
      when: "The domain is still pending, is the service's BOUNCE_DOMAIN, or another account receives mail for its name",
      detail: 'mail.example.com is pending: verify it (POST /domains/{id}/verify) before receiving mail for it.',
    },
    415,
    429,
  )
  update(
    @CurrentUser() user: AuthUser,
    @Param('id') id: string,
    @Body() body: UpdateDomainDto,
  ): Promise<DomainResponse> {
    return this.updateDomain.execute(user, id, body);
  }

  @Delete(':id')
  @RequiresScope('send')
  @HttpCode(204)
  @ApiOperation({ summary: 'Remove a sending domain and its key: its mail is no longer signed' })
  @ApiNoContentResponse({ description: 'Removed' })
  @ApiProblemResponses(401, 404, 429)
  remove(@CurrentUser() user: AuthUser, @Param('id') id: string): Promise<void> {
    return this.service.remove(user, id);
  }
}
