// A real OpenID Connect provider (oidc-provider, an ES module, hence a child process) for the OIDC
// sign-in suites: `node test/support/oidc-provider.mjs <client_id> <client_secret> <redirect_uri>`
// listens on a free loopback port and prints {"issuer": "..."} once ready.
//
// Its only interaction (login and consent in one) is GET /interaction/<uid>?email=…&verified=true|false:
// the test names the person the provider vouches for; the rest of the dance is the provider's own.
import { createServer } from 'node:http';
import Provider from 'oidc-provider';

const [clientId, clientSecret, redirectUri] = process.argv.slice(2);
if (!clientId || !clientSecret || !redirectUri) {
  console.error('usage: oidc-provider.mjs <client_id> <client_secret> <redirect_uri>');
  process.exit(2);
}

/** The account id carries the person's claims, so that the provider keeps no store of its own. */
const accountIdOf = (email, verified) => Buffer.from(JSON.stringify({ email, verified })).toString('base64url');

const server = createServer();
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const issuer = `http://127.0.0.1:${server.address().port}`;

const provider = new Provider(issuer, {
  clients: [
    {
      client_id: clientId,
      client_secret: clientSecret,
      redirect_uris: [redirectUri],
      grant_types: ['authorization_code'],
      response_types: ['code'],
      token_endpoint_auth_method: 'client_secret_post',
    },
  ],
  // The service must send a PKCE challenge: a confidential client is not required to by default.
  pkce: { required: () => true },
  // The email claims in the ID token itself (by default they would go to userinfo only).
  conformIdTokenClaims: false,
  claims: { openid: ['sub'], email: ['email', 'email_verified'] },
  cookies: { keys: ['oidc-provider test cookie key, not a secret'] },
  features: { devInteractions: { enabled: false } },
  interactions: { url: (ctx, interaction) => `/interaction/${interaction.uid}` },
  async findAccount(ctx, accountId) {
    const { email, verified } = JSON.parse(Buffer.from(accountId, 'base64url').toString('utf8'));
    return { accountId, claims: async () => ({ sub: accountId, email, email_verified: verified }) };
  },
});

const handle = provider.callback();
server.on('request', async (req, res) => {
  const url = new URL(req.url, issuer);
  if (!url.pathname.startsWith('/interaction/')) return handle(req, res);
  try {
    const details = await provider.interactionDetails(req, res);
    const accountId = accountIdOf(url.searchParams.get('email'), url.searchParams.get('verified') === 'true');
    const grant = new provider.Grant({ accountId, clientId: details.params.client_id });
    grant.addOIDCScope('openid email');
    const grantId = await grant.save();
    await provider.interactionFinished(
      req,
      res,
      { login: { accountId }, consent: { grantId } },
      { mergeWithLastSubmission: false },
    );
  } catch (error) {
    res.statusCode = 400;
    res.end(String(error));
  }
});

console.log(JSON.stringify({ issuer }));
