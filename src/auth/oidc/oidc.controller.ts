import { Controller, Get, Req, Res } from '@nestjs/common';
import { ApiFoundResponse, ApiOkResponse, ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { AppConfig } from '../../platform/config/app-config';
import { clientAddressOfRequest } from '../../platform/http/client-address';
import { Public } from '../../platform/http/public.decorator';
import { NotFoundError } from '../../platform/problem/problem.errors';
import { ApiProblemResponses } from '../../platform/problem/api-problem-responses.decorator';
import { sessionCookie } from '../sessions/session-cookie';
import { clearedOidcFlowCookie, oidcFlowCookie, oidcFlowOf } from './oidc-flow-cookie';
import { OIDC_PAGE_HEADERS, oidcRefusalPage, type OidcRefusal } from './oidc-pages';
import { OidcExchangeError, OidcProviderClient } from './oidc-provider-client';
import { OidcSignIn } from './oidc-sign-in';
import { SessionMethodsResponse } from './session-methods.response';

const NOT_CONFIGURED = {
  status: 404,
  when: 'OIDC_ISSUER is not set',
  detail: 'Sign-in with OpenID Connect (not configured here) does not exist.',
} as const;

/** Sign-in with an OpenID Connect provider, beside the password (docs/teams.md#signing-in-with-oidc). */
@ApiTags('members')
@Public()
@Controller('session')
export class OidcController {
  constructor(
    private readonly provider: OidcProviderClient,
    private readonly signIn: OidcSignIn,
    private readonly config: AppConfig,
  ) {}

  @Get('methods')
  @ApiOperation({ summary: "The ways to sign in here: the console shows the provider's button when `oidc` is true" })
  @ApiOkResponse({ type: SessionMethodsResponse })
  methods(): SessionMethodsResponse {
    return { password: true, oidc: this.provider.settings !== undefined };
  }

  @Get('oidc')
  @ApiOperation({
    summary: "Start signing in with the OIDC provider: a redirect to the provider's sign-in page",
    description: 'A provider that does not answer gets an HTML page for the browser (502), not a problem.',
  })
  @ApiFoundResponse({ description: 'To the provider, with a short-lived cookie that holds the flow' })
  @ApiProduces('text/html')
  @ApiProblemResponses(NOT_CONFIGURED)
  async start(@Res() response: Response): Promise<void> {
    this.ensureConfigured();
    let started;
    try {
      started = await this.provider.start();
    } catch (error) {
      if (error instanceof OidcExchangeError) return this.refuse(response, 'provider unreachable');
      throw error;
    }
    response.setHeader('Set-Cookie', oidcFlowCookie(started.flow, this.config));
    response.setHeader('Cache-Control', 'no-store');
    response.redirect(302, started.url);
  }

  @Get('oidc/callback')
  @ApiOperation({
    summary:
      'Where the provider sends the browser back: signs in the member of the verified email, or a page saying why not',
    description:
      'A refused sign-in is an HTML page for the browser, not a problem: 400 (no flow cookie, another `state`, an answer of the provider that does not check out) or 403 (the address is not verified, or no account has it).',
  })
  @ApiFoundResponse({ description: 'Signed in: the session cookie, and on to /console/' })
  @ApiProduces('text/html')
  @ApiProblemResponses(NOT_CONFIGURED)
  async callback(@Req() request: Request, @Res() response: Response): Promise<void> {
    this.ensureConfigured();
    const flow = oidcFlowOf(request);
    const query = request.originalUrl.includes('?') ? request.originalUrl.slice(request.originalUrl.indexOf('?')) : '';
    // Usable once, whatever comes of it.
    response.setHeader('Set-Cookie', clearedOidcFlowCookie(this.config));
    // No flow in this browser (none started, done already, or another browser's link), or not its state.
    if (!flow || new URLSearchParams(query).get('state') !== flow.state) return this.refuse(response, 'failed');
    const outcome = await this.signIn.finish(query, flow, clientAddressOfRequest(request, this.config.trustedProxies));
    if ('refused' in outcome) return this.refuse(response, outcome.refused);
    response.setHeader('Set-Cookie', [
      clearedOidcFlowCookie(this.config),
      sessionCookie(outcome.session.token, this.config),
    ]);
    response.setHeader('Cache-Control', 'no-store');
    response.redirect(302, '/console/');
  }

  private ensureConfigured(): void {
    if (!this.provider.settings) throw new NotFoundError('Sign-in with OpenID Connect (not configured here)');
  }

  private refuse(response: Response, refusal: OidcRefusal): void {
    const page = oidcRefusalPage(refusal);
    response.status(page.status).set(OIDC_PAGE_HEADERS).send(page.html);
  }
}
