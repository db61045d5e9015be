import 'reflect-metadata';
import { AppConfig, ConfigurationError } from './app-config';
import { MAX_SMTP_RELAYS } from './smtp-relays';

const SECRET = 'a-secret-of-at-least-thirty-two-characters!';
const relaysOf = (SMTP_URL: string) => AppConfig.fromEnvironment({ JWT_SECRET: SECRET, SMTP_URL }).delivery.relays;
const loading = (SMTP_URL: string) => () => AppConfig.fromEnvironment({ JWT_SECRET: SECRET, SMTP_URL });
const relayList = (count: number) =>
  Array.from({ length: count }, (_, i) => `smtp://user:s3cret@relay${i}.example.com:25`).join(',');

describe('SMTP_URL: one relay, or several tried in order (docs/configuration.md)', () => {
  it('reads one relay as before, named by host and port', () => {
    expect(relaysOf('smtps://mailer:s3cret@smtp.example.com:465')).toEqual([
      { url: 'smtps://mailer:s3cret@smtp.example.com:465', name: 'smtp.example.com:465' },
    ]);
  });

  it("names a relay without a port by nodemailer's default (587 for smtp, 465 for smtps)", () => {
    expect(relaysOf('smtp://a.example,smtps://b.example').map((r) => r.name)).toEqual([
      'a.example:587',
      'b.example:465',
    ]);
  });

  it('reads several, comma-separated (spaces around the commas allowed), in order', () => {
    const config = AppConfig.fromEnvironment({
      JWT_SECRET: SECRET,
      SMTP_URL: 'smtp://u:p@a.example:2525 , smtps://b.example:465,smtp://[::1]:25',
    });

    expect(config.delivery.relays).toEqual([
      { url: 'smtp://u:p@a.example:2525', name: 'a.example:2525' },
      { url: 'smtps://b.example:465', name: 'b.example:465' },
      { url: 'smtp://[::1]:25', name: '[::1]:25' },
    ]);
    expect(config.delivery.smtpUrl).toBe('smtp://u:p@a.example:2525,smtps://b.example:465,smtp://[::1]:25');
  });

  it("keeps a comma inside one relay's password (only a comma followed by a scheme starts a relay)", () => {
    expect(relaysOf('smtp://user:pa,ss@relay.example.com:25')).toEqual([
      { url: 'smtp://user:pa,ss@relay.example.com:25', name: 'relay.example.com:25' },
    ]);
  });

  it('refuses a port past 65535 with a message naming the variable, never the credentials', () => {
    const load = loading('smtp://a.example:25,smtp://mailer:s3cret@b.example:70000');

    expect(load).toThrow(ConfigurationError);
    expect(load).toThrow(/SMTP_URL/);
    expect(load).not.toThrow(/s3cret|mailer/);
  });

  it(`takes ${MAX_SMTP_RELAYS} relays and refuses ${MAX_SMTP_RELAYS + 1}`, () => {
    expect(relaysOf(relayList(MAX_SMTP_RELAYS))).toHaveLength(MAX_SMTP_RELAYS);
    expect(loading(relayList(MAX_SMTP_RELAYS + 1))).toThrow(/SMTP_URL may name at most 10 relays/);
  });

  it.each([
    ['a second relay that is not an SMTP URL', 'smtp://a.example:25,http://b.example'],
    ['an empty relay between two commas', 'smtp://a.example:25,,smtp://b.example:25'],
    ['a trailing comma', 'smtp://a.example:25,'],
    ['a relay with a path', 'smtp://a.example:25,smtp://b.example:25/x'],
    ['a bad port', 'smtp://a.example:25,smtp://b.example:port'],
    ['an IPv6 address without brackets', 'smtp://a.example:25,smtp://::1:25'],
  ])('refuses %s, naming the variable and never the credentials', (_, value) => {
    const load = loading(value.replace('smtp://a.', 'smtp://mailer:s3cret@a.'));

    expect(load).toThrow(ConfigurationError);
    expect(load).toThrow(/SMTP_URL must look like smtp:\/\/user:pass@host:port/);
    expect(load).not.toThrow(/s3cret|mailer/);
  });
});
