import 'reflect-metadata';
import { decode, JwtPayload, verify } from 'jsonwebtoken';
import { AppConfig } from '../platform/config/app-config';
import { parseTtl, signToken } from './token-signer';

const SECRET = 'a-secret-of-at-least-thirty-two-characters!';

describe(parseTtl.name, () => {
  it.each([
    ['30m', 1800],
    ['1h', 3600],
    ['7d', 604800],
    ['45', 45],
    ['45s', 45],
    [' 2h ', 7200],
  ])('reads %j as %d seconds', (text, seconds) => {
    expect(parseTtl(text)).toBe(seconds);
  });

  it.each(['bad', '', '1w', '-5', '1.5h', 'h', '10 m'])('refuses %j', (text) => {
    expect(() => parseTtl(text)).toThrow(/Invalid TTL/);
  });
});

describe(signToken.name, () => {
  const now = () => Math.floor(Date.now() / 1000);

  it('signs an HS256 token with sub and exp that the configured secret verifies', () => {
    const config = AppConfig.fromEnvironment({ JWT_SECRET: SECRET });

    const sut = signToken(config, 'user-42', 600);

    const payload = verify(sut, SECRET, { algorithms: ['HS256'] }) as JwtPayload;
    expect(payload.sub).toBe('user-42');
    expect(payload.exp).toBeGreaterThanOrEqual(now() + 598);
    expect(payload.exp).toBeLessThanOrEqual(now() + 600);
    expect(payload.iss).toBeUndefined();
    expect(payload.aud).toBeUndefined();
    expect(decode(sut, { complete: true })?.header.alg).toBe('HS256');
  });

  it('is refused by another key', () => {
    const config = AppConfig.fromEnvironment({ JWT_SECRET: SECRET });

    const sut = signToken(config, 'user-42', 600);

    expect(() => verify(sut, `${SECRET}-other`, { algorithms: ['HS256'] })).toThrow(/invalid signature/);
  });

  it('adds iss and aud when they are configured', () => {
    const config = AppConfig.fromEnvironment({
      JWT_SECRET: SECRET,
      JWT_ISSUER: 'https://issuer.example.com/',
      JWT_AUDIENCE: 'mailroom',
    });

    const sut = signToken(config, 'user-42', 60);

    const payload = verify(sut, SECRET, {
      algorithms: ['HS256'],
      issuer: 'https://issuer.example.com/',
      audience: 'mailroom',
    }) as JwtPayload;
    expect(payload).toMatchObject({ sub: 'user-42', iss: 'https://issuer.example.com/', aud: 'mailroom' });
  });

  it('refuses to sign when tokens come from an identity provider', () => {
    const config = AppConfig.fromEnvironment({ JWT_JWKS_URL: 'https://idp.example.com/.well-known/jwks.json' });

    expect(() => signToken(config, 'user-42', 600)).toThrow(/JWT_JWKS_URL/);
  });
});
