import { Injectable } from '@nestjs/common';
import type * as OpenIdClientModule from 'openid-client' with { 'resolution-mode': 'import' };
import type { Configuration } from 'openid-client' with { 'resolution-mode': 'import' };
import { AppConfig, type OidcClientConfig } from '../../platform/config/app-config';

// openid-client is an ES module: loaded with import() from this CommonJS build (and under jest
// with --experimental-vm-modules, see npm test); only its types are imported statically.
type OpenIdClient = typeof OpenIdClientModule;

/** What a sign-in keeps between the redirect to the provider and its callback (docs/teams.md#signing-in-with-oidc). */
export interface OidcFlow {
  state: string;
  nonce: string;
  codeVerifier: string;
}

/** The claims of a verified ID token this service reads. */
export interface OidcIdentity {
  email?: string;
  emailVerified: boolean;
}

/** Answered by the provider's discovery, token exchange or ID token check: the sign-in fails, not the server. */
export class OidcExchangeError extends Error {}

/** The provider's side of the authorization code flow with PKCE, `state` and `nonce`, through openid-client. */
@Injectable()
export class OidcProviderClient {
  // Discovery is asked once per process, and again after a failure (the provider may have been down).
  private configuration?: Promise<{ client: OpenIdClient; configuration: Configuration }>;

  constructor(private readonly config: AppConfig) {}

  get settings(): OidcClientConfig | undefined {
    return this.config.teams.oidc;
  }

  /** Where the provider sends the browser back: PUBLIC_URL's callback route, registered with the provider. */
  get redirectUri(): string {
    return `${this.config.deliverability.publicUrl}/session/oidc/callback`;
  }

  /** A new flow's secrets and the provider's authorization URL that carries them. */
  async start(): Promise<{ flow: OidcFlow; url: string }> {
    const { client, configuration } = await this.discovered();
    const flow = {
      state: client.randomState(),
      nonce: client.randomNonce(),
      codeVerifier: client.randomPKCECodeVerifier(),
    };
    const url = client.buildAuthorizationUrl(configuration, {
      redirect_uri: this.redirectUri,
      scope: 'openid email',
      response_type: 'code',
      code_challenge: await client.calculatePKCECodeChallenge(flow.codeVerifier),
      code_challenge_method: 'S256',
      state: flow.state,
      nonce: flow.nonce,
    });
    return { flow, url: url.href };
  }

  /**
   * Checks the callback's `state` against the flow's, exchanges its code (with the PKCE verifier),
   * and validates the ID token (signature, issuer, audience, expiry, `nonce`); its claims then.
   */
  async finish(callbackQuery: string, flow: OidcFlow): Promise<OidcIdentity> {
    const { client, configuration } = await this.discovered();
    const currentUrl = new URL(this.redirectUri);
    currentUrl.search = callbackQuery;
    try {
      const tokens = await client.authorizationCodeGrant(configuration, currentUrl, {
        expectedState: flow.state,
        expectedNonce: flow.nonce,
        pkceCodeVerifier: flow.codeVerifier,
        idTokenExpected: true,
      });
      const claims = tokens.claims();
      return {
        email: typeof claims?.email === 'string' ? claims.email : undefined,
        emailVerified: claims?.email_verified === true,
      };
    } catch (error) {
      throw new OidcExchangeError((error as Error).message);
    }
  }

  private discovered(): Promise<{ client: OpenIdClient; configuration: Configuration }> {
    const settings = this.settings;
    if (!settings) throw new Error('OIDC is not configured');
    this.configuration ??= (async () => {
      const client = await import('openid-client');
      const issuer = new URL(settings.issuer);
      // AppConfig allows http only for a provider on this machine (docs/configuration.md#teams).
      const execute = issuer.protocol === 'http:' ? [client.allowInsecureRequests] : [];
      try {
        const configuration = await client.discovery(issuer, settings.clientId, settings.clientSecret, undefined, {
          execute,
        });
        return { client, configuration };
      } catch (error) {
        throw new OidcExchangeError(`discovery of ${settings.issuer} failed: ${(error as Error).message}`);
      }
    })();
    this.configuration.catch(() => (this.configuration = undefined));
    return this.configuration;
  }
}
