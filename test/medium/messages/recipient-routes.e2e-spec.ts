// docs/delivery-and-deliverability.md#statuses "Recipients": each recipient's fate keeps the route (host, TLS) of the
// last delivery transaction that reached a server for it, written with the fate by the lifecycle's
// statement, and the Message shows it as recipients[].route (null while none was reached).
import { MessageLifecycle } from '../../../src/messages/lifecycle/message-lifecycle.repository';
import { storeMessage } from '../../support/factories';
import { bootTestApp, TestApp } from '../../support/test-app';
import { bearer, newUserId } from '../../support/tokens';

describe('recipient routes', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await bootTestApp({});
  });
  afterAll(() => t?.close());

  it('shows the route a delivery set, keeps it through a change that reached no server, and replaces it with a new one', async () => {
    const userId = newUserId('routes');
    const { id } = await storeMessage(t.db, userId, { recipients: ['ada@example.com', 'bob@example.org'] });
    const lifecycle = t.app.get(MessageLifecycle);
    const routes = async () =>
      (
        (await t.http.get(`/user/messages/${id}`).set(bearer(userId)).expect(200)).body.recipients as {
          status: string;
          route: unknown;
        }[]
      ).map((r) => [r.status, r.route]);
    expect(await routes()).toEqual([
      ['pending', null],
      ['pending', null],
    ]);

    const mx = { host: 'mx.example.com', tls: true };
    const other = { host: 'mx.example.org', tls: false };
    await t.db.transaction((m) => lifecycle.claim(m, [{ messageId: id, attempt: 1 }], {}));
    await t.db.transaction((m) =>
      lifecycle.finish(m, [
        {
          messageId: id,
          attempt: 1,
          status: 'deferred',
          detail: '250 ok; 451 later',
          retryAfterSeconds: 0,
          fates: [
            { position: 0, key: 'ada@example.com', status: 'sent', detail: '250 ok', route: mx },
            { position: 1, key: 'bob@example.org', status: 'deferred', detail: '451 later', route: other },
          ],
        },
      ]),
    );
    expect(await routes()).toEqual([
      ['sent', mx],
      ['deferred', other],
    ]);

    // The retry's connection timed out (no route): bob keeps where his last transaction went.
    await t.db.transaction((m) => lifecycle.claim(m, [{ messageId: id, attempt: 2 }], {}));
    await t.db.transaction((m) =>
      lifecycle.finish(m, [
        {
          messageId: id,
          attempt: 2,
          status: 'deferred',
          detail: 'connect ETIMEDOUT',
          retryAfterSeconds: 0,
          fates: [{ position: 1, key: 'bob@example.org', status: 'deferred', detail: 'connect ETIMEDOUT' }],
        },
      ]),
    );
    expect(await routes()).toEqual([
      ['sent', mx],
      ['deferred', other],
    ]);

    const backup = { host: 'mx2.example.org', tls: true };
    await t.db.transaction((m) => lifecycle.claim(m, [{ messageId: id, attempt: 3 }], {}));
    await t.db.transaction((m) =>
      lifecycle.finish(m, [
        {
          messageId: id,
          attempt: 3,
          status: 'sent',
          detail: '250 queued',
          fates: [{ position: 1, key: 'bob@example.org', status: 'sent', detail: '250 queued', route: backup }],
        },
      ]),
    );
    expect(await routes()).toEqual([
      ['sent', mx],
      ['sent', backup],
    ]);
  });
});
