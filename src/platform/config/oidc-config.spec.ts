import 'reflect-metadata';
import { AppConfig, ConfigurationError } from './app-config';

const SECRET = 'a-secret-of-at-least-thirty-two-characters!';
const OIDC = {
  OIDC_ISSUER: 'https://accounts.example.com',
  OIDC_CLIENT_ID: 'mailroom',
  OIDC_CLIENT_SECRET: 'a client secret',
};
const load = (vars: Record<string, string>) => () => AppConfig.fromEnvironment({ JWT_SECRET: SECRET, ...vars });

// docs/configuration.md#teams: OIDC_ISSUER and its client, all three or none.
describe('the OIDC settings', () => {
  it('are off when unset (or blank)', () => {
    expect(load({})().teams.oidc).toBeUndefined();
    expect(load({ OIDC_ISSUER: '', OIDC_CLIENT_ID: '', OIDC_CLIENT_SECRET: '' })().teams.oidc).toBeUndefined();
  });

  it('reads the provider and its client', () => {
    expect(load(OIDC)().teams.oidc).toEqual({
      issuer: 'https://accounts.example.com',
      clientId: 'mailroom',
      clientSecret: 'a client secret',
    });
  });

  it.each(['OIDC_ISSUER', 'OIDC_CLIENT_ID', 'OIDC_CLIENT_SECRET'])('refuses them without %s', (missing) => {
    const vars: Record<string, string> = { ...OIDC };
    delete vars[missing];

    expect(load(vars)).toThrow(ConfigurationError);
    expect(load(vars)).toThrow('Set all of OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET, or none.');
  });

  it('takes an http issuer only on this machine (a test provider), and no URL that is not http(s)', () => {
    expect(load({ ...OIDC, OIDC_ISSUER: 'http://127.0.0.1:4000' })().teams.oidc?.issuer).toBe('http://127.0.0.1:4000');
    expect(load({ ...OIDC, OIDC_ISSUER: 'http://localhost:4000/realm' })().teams.oidc?.issuer).toBe(
      'http://localhost:4000/realm',
    );
    expect(load({ ...OIDC, OIDC_ISSUER: 'http://accounts.example.com' })).toThrow(/OIDC_ISSUER must be an https:\/\//);
    expect(load({ ...OIDC, OIDC_ISSUER: 'ftp://accounts.example.com' })).toThrow(/OIDC_ISSUER: OIDC_ISSUER must be/);
    expect(load({ ...OIDC, OIDC_ISSUER: 'accounts.example.com' })).toThrow(/OIDC_ISSUER/);
  });

  it('takes a client id of up to 256 characters and a secret of up to 1024', () => {
    expect(
      load({ ...OIDC, OIDC_CLIENT_ID: 'i'.repeat(256), OIDC_CLIENT_SECRET: 's'.repeat(1024) })().teams.oidc,
    ).toEqual(expect.objectContaining({ clientId: 'i'.repeat(256), clientSecret: 's'.repeat(1024) }));
    expect(load({ ...OIDC, OIDC_CLIENT_ID: 'i'.repeat(257) })).toThrow(/OIDC_CLIENT_ID/);
    expect(load({ ...OIDC, OIDC_CLIENT_SECRET: 's'.repeat(1025) })).toThrow(/OIDC_CLIENT_SECRET/);
  });
});
