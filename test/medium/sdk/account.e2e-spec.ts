// @mailroom/sdk's account resources against the real app: domains (verified through a real DNS
// server on loopback), API keys, suppressions, webhook endpoints, stats, members and the caller.
import { randomUUID } from 'node:crypto';
import type { Mailroom } from '../../../packages/sdk/src';
import { TestDnsServer } from '../../support/dns-server';
import { baseUrlOf, sdkAs, thrown } from '../../support/sdk';
import { bootTestApp, TestApp } from '../../support/test-app';
import { newUserId } from '../../support/tokens';

const newDomain = (label: string) => `${label}-${randomUUID().slice(0, 8)}.example.com`;

describe('the SDK: the account', () => {
  const dns = new TestDnsServer();
  let t: TestApp;
  let baseUrl: string;
  beforeAll(async () => {
    t = await bootTestApp({ DNS_SERVERS: await dns.start() });
    baseUrl = await baseUrlOf(t);
  });
  afterAll(async () => {
    await t.close();
    await dns.stop();
  });

  let mailroom: Mailroom;
  let userId: string;
  beforeEach(() => {
    userId = newUserId('account');
    mailroom = sdkAs(baseUrl, userId);
  });

  it('tells who the caller is', async () => {
    expect(await mailroom.me()).toMatchObject({ userId, credential: 'jwt' });
  });

  it('creates, lists, verifies, changes and removes a domain; a second of one name is a 409', async () => {
    const name = newDomain('sdk');
    const created = await mailroom.domains.create({ name });
    expect(created).toMatchObject({ name, status: 'pending' });
    expect(await thrown(mailroom.domains.create({ name }))).toMatchObject({ status: 409, title: 'Conflict' });
    expect((await mailroom.domains.list()).map((domain) => domain.id)).toEqual([created.id]);

    const dkim = created.dnsRecords.find((record) => record.purpose === 'dkim')!;
    dns.publish(dkim.name, dkim.value);
    expect(await mailroom.domains.verify(created.id)).toMatchObject({ id: created.id, status: 'verified' });
    expect(await mailroom.domains.get(created.id)).toMatchObject({ status: 'verified', receiving: false });
    expect(await mailroom.domains.update(created.id, { receiving: true })).toMatchObject({ receiving: true });

    await mailroom.domains.remove(created.id);
    expect(await thrown(mailroom.domains.get(created.id))).toMatchObject({ status: 404 });
    expect(await mailroom.domains.list()).toEqual([]);
  });

  it('creates an API key that works as a credential, lists it without the key, and removes it', async () => {
    const created = await mailroom.apiKeys.create({ name: 'CRM' });
    expect(created.key).toMatch(/^mr_/);
    expect(created.scopes).toEqual(['send', 'read', 'keys']);
    const asKey = sdkAs(baseUrl, 'ignored', { token: undefined, apiKey: created.key });
    expect(await asKey.me()).toMatchObject({ userId, credential: 'api-key' });
    const [listed] = await mailroom.apiKeys.list();
    expect(listed).toMatchObject({ id: created.id, name: 'CRM', prefix: created.key.slice(0, 8) });
    expect(listed).not.toHaveProperty('key');
    await mailroom.apiKeys.remove(created.id);
    expect(await thrown(asKey.me())).toMatchObject({ status: 401 });
    expect(await thrown(mailroom.apiKeys.remove(created.id))).toMatchObject({ status: 404 });
    expect(await thrown(mailroom.apiKeys.create({ name: '' }))).toMatchObject({
      status: 400,
      errors: [expect.objectContaining({ field: 'name' })],
    });
  });

  it('adds, finds, walks and removes suppressions', async () => {
    const addresses = Array.from({ length: 5 }, (_, i) => `s${i}-${randomUUID().slice(0, 6)}@example.com`);
    for (const email of addresses) await mailroom.suppressions.add({ email });
    expect(await mailroom.suppressions.add({ email: addresses[0], scope: 'bulk' })).toMatchObject({
      email: addresses[0],
      scope: 'all',
    });
    expect((await mailroom.suppressions.list({ email: addresses[2].toUpperCase() })).suppressions).toEqual([
      expect.objectContaining({ email: addresses[2], reason: 'manual' }),
    ]);
    const walked = [];
    for await (const entry of mailroom.suppressions.listAll({ take: 2 })) walked.push(entry.email);
    expect(walked.sort()).toEqual([...addresses].sort());
    await mailroom.suppressions.remove(addresses[1]);
    expect(await thrown(mailroom.suppressions.remove(addresses[1]))).toMatchObject({ status: 404 });
    expect((await mailroom.suppressions.list()).total).toBe(4);
  });

  it('manages webhook endpoints and their secrets; the 21st is a 409', async () => {
    const created = await mailroom.webhookEndpoints.create({
      url: 'https://hooks.example.com/mailroom',
      events: ['message.sent'],
    });
    expect(created).toMatchObject({ enabled: true, events: ['message.sent'], description: null });
    expect(created.secret).toMatch(/^whsec_/);
    expect(await mailroom.webhookEndpoints.secret(created.id)).toBe(created.secret);
    const rotated = await mailroom.webhookEndpoints.rotateSecret(created.id);
    expect(rotated).not.toBe(created.secret);
    expect(await mailroom.webhookEndpoints.secret(created.id)).toBe(rotated);

    const changed = await mailroom.webhookEndpoints.update(created.id, { description: 'CRM', events: [] });
    expect(changed).toMatchObject({ description: 'CRM', events: [] });
    expect(await mailroom.webhookEndpoints.get(created.id)).toEqual(changed);
    expect(await mailroom.webhookEndpoints.list()).toEqual([changed]);
    expect(await mailroom.webhookEndpoints.test(created.id)).toMatch(/^[0-9a-f-]{36}$/);
    expect(await mailroom.webhookDeliveries.accountSecret()).toMatch(/^whsec_/);

    for (let i = 1; i < 20; i++) await mailroom.webhookEndpoints.create({ url: `https://hooks.example.com/${i}` });
    const over = await thrown(mailroom.webhookEndpoints.create({ url: 'https://hooks.example.com/21' }));
    expect(over).toMatchObject({ status: 409, title: 'Conflict' });
    await mailroom.webhookEndpoints.remove(created.id);
    expect(await thrown(mailroom.webhookEndpoints.get(created.id))).toMatchObject({ status: 404 });
    expect(
      await thrown(mailroom.webhookEndpoints.create({ url: 'https://hooks.example.com/x', events: ['nope' as never] })),
    ).toMatchObject({ status: 400, errors: [expect.objectContaining({ field: 'events' })] });
  });

  it('counts the messages of the days asked for', async () => {
    await mailroom.emails.send({ sender: 'a@example.com', to: ['b@example.com'], subject: 'Hi', text: 'Hello' });
    const today = new Date().toISOString().slice(0, 10);
    const stats = await mailroom.stats.get({ startDate: today, endDate: today });
    expect(stats).toMatchObject({ startDate: today, endDate: today, totals: { accepted: 1 } });
    expect(stats.days).toHaveLength(1);
    expect(await thrown(mailroom.stats.get({ startDate: 'yesterday' }))).toMatchObject({ status: 400 });
  });

  it('invites, lists, changes and removes a member', async () => {
    const email = `grace-${randomUUID().slice(0, 8)}@example.com`;
    const invited = await mailroom.members.invite({ email, role: 'developer' });
    expect(invited).toMatchObject({ email, role: 'developer', status: 'invited' });
    expect(await thrown(mailroom.members.invite({ email, role: 'viewer' }))).toMatchObject({ status: 409 });
    expect((await mailroom.members.list()).map((member) => member.email)).toContain(email);
    expect(await mailroom.members.update(invited.id, { role: 'viewer' })).toMatchObject({ role: 'viewer' });
    await mailroom.members.remove(invited.id);
    expect((await mailroom.members.list()).map((member) => member.email)).not.toContain(email);
    expect(await thrown(mailroom.members.remove(invited.id))).toMatchObject({ status: 404 });
  });

  it('reads the audit log, one page or every entry of one action; an API key may not (403)', async () => {
    const keys = await Promise.all(['one', 'two', 'three'].map((name) => mailroom.apiKeys.create({ name })));
    await mailroom.suppressions.add({ email: `gone-${randomUUID().slice(0, 8)}@example.com` });

    const page = await mailroom.auditLog.list({ take: 2 });
    expect(page).toMatchObject({ total: 4, totalPages: 2, hasNext: true });
    expect(page.entries.map((entry) => entry.action)).toEqual(['suppression.created', 'api_key.created']);
    const created: string[] = [];
    for await (const entry of mailroom.auditLog.listAll({ action: 'api_key.created', take: 1 })) {
      expect(entry.actor).toMatchObject({ id: userId });
      created.push(entry.target.id);
    }
    expect(created.sort()).toEqual(keys.map((key) => key.id).sort());

    const asKey = sdkAs(baseUrl, 'ignored', { token: undefined, apiKey: keys[0].key });
    expect(await thrown(asKey.auditLog.list())).toMatchObject({ status: 403 });
  });
});
