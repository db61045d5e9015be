import 'reflect-metadata';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AppConfig, ConfigurationError } from './app-config';

const SECRET = 'a-secret-of-at-least-thirty-two-characters!';
const load = (env: Record<string, string>) => AppConfig.fromEnvironment({ JWT_SECRET: SECRET, ...env });

describe('AppConfig: SMTP submission (docs/api.md#smtp-submission)', () => {
  let dir: string;
  let cert: string;
  let key: string;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'submission-config-'));
    cert = join(dir, 'cert.pem');
    key = join(dir, 'key.pem');
    writeFileSync(cert, 'CERT');
    writeFileSync(key, 'KEY');
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('is off by default, with no TLS and no insecure AUTH', () => {
    expect(load({}).submission).toEqual({ smtpPort: undefined, tls: undefined, allowInsecureAuth: false });
  });

  it('reads the port (0 and 65535 included), the PEM files and the insecure AUTH switch', () => {
    const sut = load({
      SUBMISSION_SMTP_PORT: '587',
      SUBMISSION_TLS_CERT: cert,
      SUBMISSION_TLS_KEY: key,
      SUBMISSION_ALLOW_INSECURE_AUTH: 'true',
    });

    expect(sut.submission).toEqual({
      smtpPort: 587,
      tls: { cert: Buffer.from('CERT'), key: Buffer.from('KEY') },
      allowInsecureAuth: true,
    });
    expect(load({ SUBMISSION_SMTP_PORT: '0', SUBMISSION_ALLOW_INSECURE_AUTH: 'true' }).submission.smtpPort).toBe(0);
    expect(load({ SUBMISSION_SMTP_PORT: '65535', SUBMISSION_ALLOW_INSECURE_AUTH: 'true' }).submission.smtpPort).toBe(
      65535,
    );
  });

  it('refuses a port with neither TLS nor insecure AUTH, where nobody could ever log in', () => {
    expect(() => load({ SUBMISSION_SMTP_PORT: '587' })).toThrow(/SUBMISSION_SMTP_PORT needs SUBMISSION_TLS_CERT/);
    expect(
      load({ SUBMISSION_SMTP_PORT: '587', SUBMISSION_TLS_CERT: cert, SUBMISSION_TLS_KEY: key }).submission
        .allowInsecureAuth,
    ).toBe(false);
  });

  it.each([['65536'], ['-1'], ['587x'], ['1e3']])('refuses SUBMISSION_SMTP_PORT=%s, naming it', (port) => {
    expect(() => load({ SUBMISSION_SMTP_PORT: port })).toThrow(/SUBMISSION_SMTP_PORT/);
  });

  it('refuses an insecure AUTH switch other than true or false', () => {
    expect(() => load({ SUBMISSION_ALLOW_INSECURE_AUTH: 'yes' })).toThrow(
      /SUBMISSION_ALLOW_INSECURE_AUTH must be true or false/,
    );
  });

  it('refuses a certificate without a key, and a key without a certificate', () => {
    expect(() => load({ SUBMISSION_TLS_CERT: cert })).toThrow(ConfigurationError);
    expect(() => load({ SUBMISSION_TLS_KEY: key })).toThrow(/both SUBMISSION_TLS_CERT and SUBMISSION_TLS_KEY/);
  });

  it('refuses a file that cannot be read, naming the variable', () => {
    expect(() => load({ SUBMISSION_TLS_CERT: cert, SUBMISSION_TLS_KEY: join(dir, 'missing.pem') })).toThrow(
      /SUBMISSION_TLS_KEY: cannot read/,
    );
  });
});
