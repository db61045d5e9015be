import { FAILED_FETCH_PAUSE_MS, MtaStsPolicies } from './mta-sts-policies';
import type { MtaStsPolicy } from './mta-sts-source';

/**
 * MtaStsPolicies with its two network steps replaced: the TXT ids and policy files a test
 * publishes, and a count of fetches. The medium suite (test/medium/delivery/mta-sts-policies)
 * runs the real DNS and HTTPS steps.
 */
class PublishedPolicies extends MtaStsPolicies {
  now = 1_000_000;
  readonly ids = new Map<string, string | Error>();
  readonly files = new Map<string, string | Error>();
  fetches = 0;

  constructor() {
    super({ dnsServers: [], clock: () => this.now });
  }

  protected override lookUpPolicyId(domain: string): Promise<string | false> {
    const id = this.ids.get(domain);
    if (id instanceof Error) return Promise.reject(id);
    return Promise.resolve(id ?? false);
  }

  protected override fetchPolicyText(domain: string): Promise<string> {
    this.fetches++;
    const file = this.files.get(domain);
    if (file === undefined) return Promise.reject(new Error('connection refused'));
    if (file instanceof Error) return Promise.reject(file);
    return Promise.resolve(file);
  }
}

const policyFile = (mode: string, maxAge: number, ...mx: string[]) =>
  ['version: STSv1', `mode: ${mode}`, ...mx.map((host) => `mx: ${host}`), `max_age: ${maxAge}`].join('\r\n');

describe('MtaStsPolicies.policyFor', () => {
  let sut: PublishedPolicies;
  beforeEach(() => (sut = new PublishedPolicies()));

  it('reads a published policy with its mode, MX patterns, max_age and TXT id', async () => {
    sut.ids.set('example.com', '20260101');
    sut.files.set('example.com', policyFile('enforce', 86400, 'mx1.example.com', '*.backup.example.com'));
    expect(await sut.policyFor('Example.COM')).toEqual({
      mode: 'enforce',
      mx: ['mx1.example.com', '*.backup.example.com'],
      maxAge: 86400,
      id: '20260101',
    });
  });

  it('is mode none without error, and fetches nothing, for a domain without a TXT record', async () => {
    expect(await sut.policyFor('plain.example')).toEqual({ mode: 'none', mx: [] });
    expect(sut.fetches).toBe(0);
  });

  it('keeps a policy for its max_age while the TXT id is unchanged, then fetches it again', async () => {
    sut.ids.set('example.com', 'one');
    sut.files.set('example.com', policyFile('enforce', 600, 'mx.example.com'));
    await sut.policyFor('example.com');
    sut.now += 599_999;
    expect((await sut.policyFor('example.com')).mode).toBe('enforce');
    expect(sut.fetches).toBe(1);
    sut.now += 1;
    sut.files.set('example.com', policyFile('testing', 600, 'mx.example.com'));
    expect((await sut.policyFor('example.com')).mode).toBe('testing');
    expect(sut.fetches).toBe(2);
  });

  it('fetches again at once when the TXT id changes', async () => {
    sut.ids.set('example.com', 'one');
    sut.files.set('example.com', policyFile('testing', 86400, 'mx.example.com'));
    await sut.policyFor('example.com');
    sut.ids.set('example.com', 'two');
    sut.files.set('example.com', policyFile('enforce', 86400, 'mx.example.com'));
    expect(await sut.policyFor('example.com')).toMatchObject({ mode: 'enforce', id: 'two' });
    expect(sut.fetches).toBe(2);
  });

  it('keeps an unexpired policy when a new id cannot be fetched (RFC 8461 §5.1)', async () => {
    sut.ids.set('example.com', 'one');
    sut.files.set('example.com', policyFile('enforce', 86400, 'mx.example.com'));
    const first = await sut.policyFor('example.com');
    sut.ids.set('example.com', 'two');
    sut.files.set('example.com', new Error('certificate has expired'));
    expect(await sut.policyFor('example.com')).toEqual(first);
  });

  it('keeps an unexpired policy when the TXT record is gone or its look-up fails', async () => {
    sut.ids.set('example.com', 'one');
    sut.files.set('example.com', policyFile('enforce', 86400, 'mx.example.com'));
    const first = await sut.policyFor('example.com');
    sut.ids.delete('example.com');
    expect(await sut.policyFor('example.com')).toEqual(first);
    sut.ids.set('example.com', new Error('queryTxt ESERVFAIL'));
    expect(await sut.policyFor('example.com')).toEqual(first);
    sut.now += 86_400_000;
    expect(await sut.policyFor('example.com')).toMatchObject({
      mode: 'none',
      error: expect.stringContaining('ESERVFAIL'),
    });
  });

  it('is mode none with the reason when a TXT record is published but no policy can be fetched', async () => {
    sut.ids.set('example.com', 'one');
    expect(await sut.policyFor('example.com')).toEqual({
      mode: 'none',
      mx: [],
      id: 'one',
      error: 'policy of example.com unavailable: connection refused',
    });
  });

  it('is mode none with the reason for a policy mailauth cannot read', async () => {
    sut.ids.set('example.com', 'one');
    sut.files.set('example.com', policyFile('enforce', 86400));
    expect(await sut.policyFor('example.com')).toMatchObject({ mode: 'none', error: expect.stringContaining('mx') });
  });

  it('waits FAILED_FETCH_PAUSE_MS before fetching a failed id again, but not for a new id', async () => {
    sut.ids.set('example.com', 'one');
    await sut.policyFor('example.com');
    sut.files.set('example.com', policyFile('enforce', 86400, 'mx.example.com'));
    sut.now += FAILED_FETCH_PAUSE_MS - 1;
    expect(await sut.policyFor('example.com')).toMatchObject({ mode: 'none', error: expect.any(String) });
    expect(sut.fetches).toBe(1);
    sut.now += 1;
    expect((await sut.policyFor('example.com')).mode).toBe('enforce');
    expect(sut.fetches).toBe(2);

    sut.ids.set('other.example', 'a');
    await sut.policyFor('other.example');
    sut.ids.set('other.example', 'b');
    sut.files.set('other.example', policyFile('testing', 60, 'mx.other.example'));
    expect((await sut.policyFor('other.example')).mode).toBe('testing');
  });

  it('makes one fetch for simultaneous look-ups of one domain', async () => {
    sut.ids.set('example.com', 'one');
    sut.files.set('example.com', policyFile('enforce', 86400, 'mx.example.com'));
    const policies = await Promise.all([sut.policyFor('example.com'), sut.policyFor('EXAMPLE.com.')]);
    expect(policies[0]).toBe(policies[1]);
    expect(sut.fetches).toBe(1);
  });
});

describe('MtaStsPolicies.matches (RFC 8461 §4.1)', () => {
  const sut = new MtaStsPolicies({ dnsServers: [] });
  const enforce = (...mx: string[]): MtaStsPolicy => ({ mode: 'enforce', mx });

  it.each([
    ['mx1.example.com', 'mx1.example.com', true],
    ['MX1.Example.com.', 'mx1.example.com', true],
    ['mx2.example.com', 'mx1.example.com', false],
    ['mail.example.com', '*.example.com', true],
    ['example.com', '*.example.com', false],
    ['a.mail.example.com', '*.example.com', false],
    ['mailexample.com', '*.example.com', false],
    ['xn--bcher-kva.example', 'bücher.example', true],
    ['mx.bücher.example', '*.xn--bcher-kva.example', true],
  ])('%s against %s: %s', (host, pattern, expected) => {
    expect(sut.matches(enforce(pattern), host)).toBe(expected);
  });

  it('accepts a host matching any one of several patterns, in testing mode too', () => {
    const policy: MtaStsPolicy = { mode: 'testing', mx: ['mx.example.net', '*.example.com'] };
    expect(sut.matches(policy, 'in.example.com')).toBe(true);
    expect(sut.matches(policy, 'mx.example.org')).toBe(false);
  });

  it('lets any host through under mode none', () => {
    expect(sut.matches({ mode: 'none', mx: [] }, 'anything.example')).toBe(true);
  });
});
