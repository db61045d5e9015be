// Every route of the API document against members' sessions (docs/teams.md#members-and-roles,
// docs/teams.md#signing-in): a viewer changes nothing, a developer reaches nothing its scopes leave out
// (members, the audit log), and no change is made with the cookie without our Origin. The routes are
// read from the served document, so a route added later is probed too, and one that states no scope
// fails here. Each refusal is a 403 problem that leaves the account as it was; the same request by an
// admin is not refused, so that the role or the Origin, not the request, is what was refused.
import type { Response } from 'supertest';
import { accountState, apiOperations, ApiOperation, isChange, nameOf, requestTo } from '../../support/api-operations';
import { joinedMember, ownOrigin } from '../../support/members';
import { bootTestApp, TestApp } from '../../support/test-app';
import { bearer, newUserId } from '../../support/tokens';

const TIMEOUT = 120_000;
// What each role may do, in API-key scopes (docs/teams.md#members-and-roles); `any` is every caller's.
const ROLE_SCOPES: Record<string, string[]> = { viewer: ['read', 'any'], developer: ['send', 'read', 'keys', 'any'] };
const KNOWN_SCOPES = ['send', 'read', 'keys', 'any', 'none'];

describe("members' sessions on every route of the API document", () => {
  let t: TestApp;
  let operations: ApiOperation[];
  const account = newUserId('team');
  const suppressed = 'suppressed@example.com';
  const values = { ids: {} as Record<string, string>, params: { email: suppressed } };
  const cookies: Record<string, string> = {};

  beforeAll(async () => {
    t = await bootTestApp({ WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' });
    operations = await apiOperations(t);
    for (const role of ['admin', 'developer', 'viewer'])
      cookies[role] = (await joinedMember(t, account, `${role}@example.com`, role)).cookie;
    // Real objects of the account behind the ids in the paths, so that a change let through would show.
    const owner = bearer(account);
    const made = async (path: string, body: object) =>
      (await t.http.post(path).set(owner).send(body).expect(201)).body.id as string;
    values.ids['/user/members'] = (await joinedMember(t, account, 'target@example.com', 'viewer')).id;
    values.ids['/domains'] = await made('/domains', { name: 'team.example.com' });
    values.ids['/user/api-keys'] = await made('/user/api-keys', { name: 'kept' });
    values.ids['/user/webhook-endpoints'] = await made('/user/webhook-endpoints', { url: 'http://127.0.0.1:9/hook' });
    values.ids['/user/messages'] = await made('/sender/send', {
      subject: 'Kept',
      text: 'Queued, never delivered (no worker)',
      to: ['ada@example.com'],
      sender: 'billing@team.example.com',
    });
    await t.http.post('/user/suppressions').set(owner).send({ email: suppressed }).expect(201);
  }, TIMEOUT);

  afterAll(() => t?.close());

  const asMember = (role: string, origin: Record<string, string> = ownOrigin(t)) => ({
    Cookie: cookies[role],
    ...origin,
  });
  const mayReach = (role: string, op: ApiOperation) =>
    op.scope !== undefined &&
    ROLE_SCOPES[role].includes(op.scope) &&
    (op.memberRoles === undefined || op.memberRoles.includes(role));
  const secured = () => operations.filter((op) => op.scope !== undefined);

  /** Sends `op` with `headers`, expects a 403 problem and the account unchanged, and returns the answer. */
  async function expectRefused(op: ApiOperation, headers: Record<string, string>): Promise<Response> {
    const before = await accountState(t.db, account);
    const response = await requestTo(t, op, headers, values);
    expect({ op: nameOf(op), status: response.status }).toEqual({ op: nameOf(op), status: 403 });
    expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(await accountState(t.db, account)).toEqual(before);
    return response;
  }

  /** The same request by an admin with our Origin: not refused, so the refusal was the role's or the Origin's. */
  async function expectAdminReaches(op: ApiOperation): Promise<void> {
    const response = await requestTo(t, op, asMember('admin'), values);
    expect({ op: nameOf(op), status: response.status }).toEqual({ op: nameOf(op), status: expect.any(Number) });
    expect([401, 403]).not.toContain(response.status);
    expect(response.status).toBeLessThan(500);
  }

  it('states for every route a scope, or needs no credential at all', async () => {
    const unstated: string[] = [];
    for (const op of operations) {
      if (op.scope !== undefined) {
        expect(KNOWN_SCOPES).toContain(op.scope);
        continue;
      }
      // No scope stated: it must be public, answering without any credential (not 401).
      const response = await requestTo(t, op, {}, values);
      if (response.status === 401 || op.secured) unstated.push(nameOf(op));
    }

    expect(unstated).toEqual([]);
    expect(secured().length).toBeGreaterThan(30);
    // What "changing nothing" compares holds the account's objects behind the probed ids.
    const state = await accountState(t.db, account);
    const tables = ['members', 'api_keys', 'sending_domains', 'webhook_endpoints', 'suppressions', 'messages'];
    expect(tables.filter((table) => !/^[1-9]\d*:/.test(state[table] ?? ''))).toEqual([]);
    expect(state.member_sessions.split(',')).toHaveLength(4);
  });

  it(
    "refuses a viewer every change (403) but its own session's, and every read outside the scope read, changing nothing",
    async () => {
      const reachableChanges = secured().filter((op) => isChange(op) && mayReach('viewer', op));
      // The person's own session alone: signing out, and moving to its membership of another account.
      expect(reachableChanges.map(nameOf).sort()).toEqual(['DELETE /session', 'POST /session/account']);

      const refused = secured().filter((op) => !mayReach('viewer', op));
      expect(refused.filter(isChange).length).toBe(secured().filter(isChange).length - reachableChanges.length);
      for (const op of refused) {
        const response = await expectRefused(op, asMember('viewer'));
        expect(response.body.detail).toMatch(/viewer/);
      }
      for (const op of refused) await expectAdminReaches(op);
    },
    TIMEOUT,
  );

  it(
    'refuses a developer what send, read and keys leave out: members and the audit log (403), changing nothing',
    async () => {
      const refused = secured().filter((op) => !mayReach('developer', op));
      // Owners' and admins' alone, whatever the scopes say (docs/teams.md#audit-log).
      expect(refused.map(nameOf)).toEqual(
        expect.arrayContaining([
          'POST /user/members',
          'GET /user/members',
          'PATCH /user/members/{id}',
          'DELETE /user/members/{id}',
          'GET /user/audit-log',
        ]),
      );
      for (const op of refused) await expectRefused(op, asMember('developer'));
      for (const op of refused) await expectAdminReaches(op);
    },
    TIMEOUT,
  );

  const foreignOrigins: Array<[string, (own: string) => Record<string, string>]> = [
    ['no Origin', () => ({})],
    ['Origin: https://evil.example', () => ({ Origin: 'https://evil.example' })],
    ['Origin: null', () => ({ Origin: 'null' })],
    ['our origin as a prefix of another host', (own) => ({ Origin: `${own}.evil.example` })],
    [
      'our host over the other scheme',
      (own) => ({ Origin: own.replace(/^http(s?):/, (_m, s) => (s ? 'http:' : 'https:')) }),
    ],
    ['our origin with a path', (own) => ({ Origin: `${own}/` })],
  ];

  it.each(foreignOrigins)(
    'refuses every change made with the cookie and %s (403), an admin’s too, changing nothing',
    async (_name, origin) => {
      const changes = secured().filter(isChange);
      for (const op of changes) await expectRefused(op, asMember('admin', origin(ownOrigin(t).Origin)));
      // Still signed in: DELETE /session above was refused too.
      await t.http.get('/session').set('Cookie', cookies.admin).expect(200);
    },
    TIMEOUT,
  );

  it('lets every read (GET and HEAD) through without an Origin', async () => {
    const reads = secured().filter((op) => !isChange(op));
    expect(reads.length).toBeGreaterThan(15);
    for (const op of reads) {
      for (const method of ['get', 'head'] as const) {
        const response = await requestTo(t, { ...op, method }, { Cookie: cookies.admin }, values);
        expect({ op: `${method} ${op.path}`, refused: [401, 403].includes(response.status) }).toEqual({
          op: `${method} ${op.path}`,
          refused: false,
        });
        expect(response.status).toBeLessThan(500);
      }
    }
  });

  it("never lets another site's page read what the cookie reaches: no CORS grant, to a read or a preflight", async () => {
    const evil = { Origin: 'https://evil.example' };
    for (const op of secured().filter((o) => !isChange(o))) {
      const read = await requestTo(t, op, { Cookie: cookies.admin, ...evil }, values);
      const preflight = await t.http
        .options(op.path.replace(/\{\w+\}/g, '0'))
        .set({ ...evil, 'Access-Control-Request-Method': 'GET', 'Access-Control-Request-Headers': 'content-type' });
      for (const response of [read, preflight]) {
        expect({ op: nameOf(op), allowed: response.headers['access-control-allow-origin'] }).toEqual({
          op: nameOf(op),
          allowed: undefined,
        });
        expect(response.headers['access-control-allow-credentials']).toBeUndefined();
      }
    }
  });
});
