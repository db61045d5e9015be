// The audit log (docs/teams.md#audit-log): every change to an account through the API leaves one
// entry naming who (a JWT by its sub, an API key by its id and prefix), what, to what and from
// where, written in the change's own transaction: a refused change and a rolled-back one leave
// none. GET /user/audit-log lists them newest first, paged as the message list, filtered by actor
// and action, to JWTs (and owners' and admins' sessions), never to an API key. Behind TRUST_PROXY the address is the client's.
import { randomUUID } from 'node:crypto';
import { AuditLogRetention } from '../../../src/auth/audit/audit-log-retention';
import { appWithDns } from '../../support/dns-server';
import { bootTestApp, TestApp } from '../../support/test-app';
import { sendBody } from '../../support/factories';
import { bearer, newUserId } from '../../support/tokens';

interface Entry {
  id: string;
  at: string;
  actor: { type: string; id: string; label: string };
  action: string;
  target: { type: string; id: string };
  clientAddress: string;
  detail: Record<string, unknown>;
}

const inAnHour = () => new Date(Date.now() + 3_600_000).toISOString();
const keyAuth = (key: string) => ({ Authorization: `Bearer ${key}` });
// supertest connects over loopback: the peer the app sees.
const LOOPBACK = '127.0.0.1';

describe('the audit log (docs/teams.md#audit-log)', () => {
  const { t, dns } = appWithDns();

  const auditLog = async (auth: { Authorization: string }, query: Record<string, string | number> = {}) =>
    (await t.http.get('/user/audit-log').query(query).set(auth).expect(200)).body as {
      entries: Entry[];
      take: number;
      page: number;
      total: number;
      totalPages: number;
      hasNext: boolean;
      actor: string | null;
      action: string | null;
    };
  const newKey = async (userId: string, scopes: string[]) =>
    (await t.http.post('/user/api-keys').set(bearer(userId)).send({ name: 'ops', scopes }).expect(201)).body as {
      id: string;
      key: string;
      prefix: string;
    };
  const entriesInDatabase = async (userId: string): Promise<number> =>
    (await t.db.query('SELECT count(*)::int AS n FROM audit_log_entries WHERE user_id = $1', [userId]))[0].n;

  it('records each change with its actor, target and client address, newest first', async () => {
    const userId = newUserId('audit');
    const jwt = { type: 'jwt', id: userId, label: userId };
    const key = await newKey(userId, ['send', 'read', 'keys']);
    const asKey = keyAuth(key.key);
    const byKey = { type: 'api_key', id: key.id, label: key.prefix };

    const domain = (
      await t.http
        .post('/domains')
        .set(asKey)
        .send({ name: `a${randomUUID().slice(0, 8)}.example` })
        .expect(201)
    ).body;
    const dkim = domain.dnsRecords.find((record: { purpose: string }) => record.purpose === 'dkim');
    dns.publish(dkim.name, dkim.value);
    expect((await t.http.post(`/domains/${domain.id}/verify`).set(asKey).expect(200)).body.status).toBe('verified');
    // Verified already: nothing changes, nothing is recorded.
    await t.http.post(`/domains/${domain.id}/verify`).set(asKey).expect(200);
    await t.http.patch(`/domains/${domain.id}`).set(asKey).send({ receiving: true }).expect(200);
    // Not from a trusted proxy (no TRUST_PROXY): the header is the client's word, and ignored.
    await t.http.delete(`/domains/${domain.id}`).set(bearer(userId)).set('X-Forwarded-For', '203.0.113.7').expect(204);

    const endpoint = (
      await t.http
        .post('/user/webhook-endpoints')
        .set(bearer(userId))
        .send({ url: 'https://hooks.example.com/mailroom?token=secret' })
        .expect(201)
    ).body;
    await t.http
      .patch(`/user/webhook-endpoints/${endpoint.id}`)
      .set(asKey)
      .send({ description: 'CRM', enabled: true })
      .expect(200);
    await t.http.post(`/user/webhook-endpoints/${endpoint.id}/rotate-secret`).set(asKey).expect(200);
    await t.http.delete(`/user/webhook-endpoints/${endpoint.id}`).set(asKey).expect(204);

    await t.http.post('/user/suppressions').set(asKey).send({ email: 'Bob@Example.com', scope: 'bulk' }).expect(201);
    await t.http.delete('/user/suppressions/bob@example.com').set(bearer(userId)).expect(204);

    const message = (
      await t.http
        .post('/sender/send')
        .set(asKey)
        .send(sendBody({ scheduledAt: inAnHour() }))
        .expect(201)
    ).body;
    await t.http.post(`/user/messages/${message.id}/cancel`).set(asKey).expect(200);

    const other = await newKey(userId, ['read']);
    await t.http.delete(`/user/api-keys/${other.id}`).set(asKey).expect(204);

    const { entries, total } = await auditLog(bearer(userId), { take: 100 });

    expect(
      entries.map(({ actor, action, target, clientAddress, detail }) => ({
        actor,
        action,
        target,
        clientAddress,
        detail,
      })),
    ).toEqual(
      [
        {
          actor: jwt,
          action: 'api_key.created',
          target: { type: 'api_key', id: key.id },
          detail: { name: 'ops', prefix: key.prefix, scopes: ['send', 'read', 'keys'] },
        },
        {
          actor: byKey,
          action: 'domain.created',
          target: { type: 'domain', id: domain.id },
          detail: { name: domain.name },
        },
        {
          actor: byKey,
          action: 'domain.verified',
          target: { type: 'domain', id: domain.id },
          detail: { name: domain.name },
        },
        {
          actor: byKey,
          action: 'domain.receiving_set',
          target: { type: 'domain', id: domain.id },
          detail: { name: domain.name, receiving: true },
        },
        { actor: jwt, action: 'domain.deleted', target: { type: 'domain', id: domain.id }, detail: {} },
        {
          actor: jwt,
          action: 'webhook_endpoint.created',
          target: { type: 'webhook_endpoint', id: endpoint.id },
          detail: { host: 'hooks.example.com' },
        },
        {
          actor: byKey,
          action: 'webhook_endpoint.updated',
          target: { type: 'webhook_endpoint', id: endpoint.id },
          detail: { fields: ['description', 'enabled'] },
        },
        {
          actor: byKey,
          action: 'webhook_endpoint.secret_rotated',
          target: { type: 'webhook_endpoint', id: endpoint.id },
          detail: {},
        },
        {
          actor: byKey,
          action: 'webhook_endpoint.deleted',
          target: { type: 'webhook_endpoint', id: endpoint.id },
          detail: {},
        },
        {
          actor: byKey,
          action: 'suppression.created',
          target: { type: 'suppression', id: 'bob@example.com' },
          detail: { scope: 'bulk' },
        },
        {
          actor: jwt,
          action: 'suppression.deleted',
          target: { type: 'suppression', id: 'bob@example.com' },
          detail: {},
        },
        {
          actor: byKey,
          action: 'message.canceled',
          target: { type: 'message', id: message.id },
          detail: { from: 'scheduled' },
        },
        {
          actor: jwt,
          action: 'api_key.created',
          target: { type: 'api_key', id: other.id },
          detail: { name: 'ops', prefix: other.prefix, scopes: ['read'] },
        },
        { actor: byKey, action: 'api_key.deleted', target: { type: 'api_key', id: other.id }, detail: {} },
      ]
        .map((entry) => ({ ...entry, clientAddress: LOOPBACK }))
        .reverse(),
    );
    expect(total).toBe(14);
    const times = entries.map((entry) => entry.at);
    expect([...times].sort().reverse()).toEqual(times);
  });

  it('records nothing for a change that is refused (400, 404, 409)', async () => {
    const userId = newUserId('audit-refused');
    await t.http.post('/user/api-keys').set(bearer(userId)).send({ name: '' }).expect(400);
    await t.http.delete(`/user/api-keys/${randomUUID()}`).set(bearer(userId)).expect(404);
    const name = `r${randomUUID().slice(0, 8)}.example`;
    await t.http.post('/domains').set(bearer(userId)).send({ name }).expect(201);
    await t.http.post('/domains').set(bearer(userId)).send({ name }).expect(409);
    const pending = (await t.http.get('/domains').set(bearer(userId)).expect(200)).body.domains[0];
    // Pending: receiving is refused.
    await t.http.patch(`/domains/${pending.id}`).set(bearer(userId)).send({ receiving: true }).expect(409);
    await t.http.delete('/user/suppressions/nobody@example.com').set(bearer(userId)).expect(404);

    const { entries } = await auditLog(bearer(userId));

    expect(entries.map((entry) => entry.action)).toEqual(['domain.created']);
  });

  describe('in the change’s transaction', () => {
    // Triggers on the shared database that fail only this suite's users' writes.
    const FAILING_ENTRY = 'audit-entry-fails';
    const FAILING_CHANGE = 'audit-change-fails';

    beforeAll(async () => {
      await t.db.query(`
        CREATE OR REPLACE FUNCTION audit_spec_refuse() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN RAISE EXCEPTION 'refused by audit-log.e2e-spec'; END $$`);
      await t.db.query(`
        CREATE TRIGGER audit_spec_refuse_entry BEFORE INSERT ON audit_log_entries FOR EACH ROW
        WHEN (NEW.user_id LIKE '${FAILING_ENTRY}-%') EXECUTE FUNCTION audit_spec_refuse()`);
      // Deferred to the commit: the change and its entry are both written when it fails.
      await t.db.query(`
        CREATE CONSTRAINT TRIGGER audit_spec_refuse_change AFTER INSERT ON api_keys
        DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
        WHEN (NEW.user_id LIKE '${FAILING_CHANGE}-%') EXECUTE FUNCTION audit_spec_refuse()`);
    });

    afterAll(async () => {
      await t.db.query('DROP TRIGGER audit_spec_refuse_entry ON audit_log_entries');
      await t.db.query('DROP TRIGGER audit_spec_refuse_change ON api_keys');
      await t.db.query('DROP FUNCTION audit_spec_refuse()');
    });

    it('keeps no change whose entry cannot be written', async () => {
      const userId = newUserId(FAILING_ENTRY);

      await t.http.post('/user/api-keys').set(bearer(userId)).send({ name: 'ops' }).expect(500);

      expect((await t.http.get('/user/api-keys').set(bearer(userId)).expect(200)).body.apiKeys).toEqual([]);
    });

    it('keeps no entry of a change that rolls back', async () => {
      const userId = newUserId(FAILING_CHANGE);

      await t.http.post('/user/api-keys').set(bearer(userId)).send({ name: 'ops' }).expect(500);

      expect((await t.http.get('/user/api-keys').set(bearer(userId)).expect(200)).body.apiKeys).toEqual([]);
      expect(await entriesInDatabase(userId)).toBe(0);
    });
  });

  it('filters by actor and by action, pages as the message list, and refuses take past 100', async () => {
    const userId = newUserId('audit-pages');
    const key = await newKey(userId, ['keys']);
    for (let i = 0; i < 3; i++)
      await t.http
        .post('/user/api-keys')
        .set(keyAuth(key.key))
        .send({ name: `k${i}` });
    const all = await auditLog(bearer(userId), { take: 2 });

    expect(all).toMatchObject({ take: 2, page: 1, total: 4, totalPages: 2, hasNext: true, actor: null, action: null });
    const second = await auditLog(bearer(userId), { take: 2, page: 2 });
    expect(second).toMatchObject({ take: 2, page: 2, total: 4, totalPages: 2, hasNext: false });
    expect([...all.entries, ...second.entries].map((entry) => entry.detail.name)).toEqual(['k2', 'k1', 'k0', 'ops']);

    const byKey = await auditLog(bearer(userId), { actor: key.id, take: 100 });
    expect(byKey).toMatchObject({ total: 3, take: 100, actor: key.id });
    expect(byKey.entries.every((entry) => entry.actor.type === 'api_key')).toBe(true);
    expect((await auditLog(bearer(userId), { actor: userId })).entries.map((entry) => entry.detail.name)).toEqual([
      'ops',
    ]);
    expect(await auditLog(bearer(userId), { action: 'api_key.deleted' })).toMatchObject({ total: 0, entries: [] });
    expect((await auditLog(bearer(userId), { action: 'api_key.created' })).total).toBe(4);

    for (const [query, field] of [
      [{ take: '101' }, 'take'],
      [{ page: '0' }, 'page'],
      [{ action: 'api_key.stolen' }, 'action'],
      [{ actor: '' }, 'actor'],
      [{ since: 'yesterday' }, 'since'],
    ] as const) {
      const refused = await t.http.get('/user/audit-log').query(query).set(bearer(userId)).expect(400);
      expect(refused.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(refused.body).toMatchObject({ status: 400, title: 'Bad Request' });
      expect(refused.body.errors.map((e: { field: string }) => e.field)).toEqual([field]);
    }
  });

  it("shows one account's entries to it alone, and refuses every API key, one with every scope too (403)", async () => {
    const userId = newUserId('audit-owner');
    const stranger = newUserId('audit-stranger');
    await newKey(userId, ['send']);
    const every = await newKey(userId, ['send', 'read', 'keys']);

    expect((await auditLog(bearer(stranger))).total).toBe(0);
    const refused = await t.http.get('/user/audit-log').set(keyAuth(every.key)).expect(403);
    expect(refused.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(refused.body).toMatchObject({ status: 403 });
  });

  it('purges the entries older than the messages’ retention window', async () => {
    const retained = await bootTestApp({ MESSAGE_RETENTION_DAYS: '30' });
    try {
      const userId = newUserId('audit-retention');
      await retained.http.post('/user/api-keys').set(bearer(userId)).send({ name: 'old' }).expect(201);
      await retained.http.post('/user/api-keys').set(bearer(userId)).send({ name: 'new' }).expect(201);
      await retained.db.query(
        `UPDATE audit_log_entries SET at = now() - interval '40 days' WHERE user_id = $1 AND detail->>'name' = 'old'`,
        [userId],
      );

      expect(await retained.app.get(AuditLogRetention).purge()).toBeGreaterThanOrEqual(1);

      const { body } = await retained.http.get('/user/audit-log').set(bearer(userId)).expect(200);
      expect(body.entries.map((entry: Entry) => entry.detail.name)).toEqual(['new']);
    } finally {
      await retained.close();
    }
  });
});

describe('the audit log behind a trusted reverse proxy (TRUST_PROXY)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await bootTestApp({ TRUST_PROXY: '127.0.0.0/8,::1' });
  });

  afterAll(async () => {
    await t?.close();
  });

  it('records the address the proxy forwards, not the proxy’s', async () => {
    const userId = newUserId('audit-proxy');

    await t.http
      .post('/user/api-keys')
      .set(bearer(userId))
      .set('X-Forwarded-For', '198.51.100.23, 203.0.113.7')
      .send({ name: 'ops' })
      .expect(201);

    const { body } = await t.http.get('/user/audit-log').set(bearer(userId)).expect(200);
    expect(body.entries.map((entry: Entry) => entry.clientAddress)).toEqual(['203.0.113.7']);
  });
});
