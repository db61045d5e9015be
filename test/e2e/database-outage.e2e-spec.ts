// While PostgreSQL is away (a restart, a failover), requests are the service's outage, not a bug:
// 503 with Retry-After, never 500. The app runs on a server of its own, which the test stops
// (a fast shutdown: its backends are ended with 57P01, then connections are refused) and starts
// again on the same port.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Response } from 'supertest';
import { sendBody } from '../support/factories';
import { EmbeddedPostgresInChild, stopProcessesMentioning } from '../support/child-processes';
import { whileRequestWaitsInDatabase } from '../support/request-in-database';
import { bootTestApp, TestApp } from '../support/test-app';
import { bearer, newUserId } from '../support/tokens';
import { waitFor, waitForAsync } from '../support/wait-for';

jest.setTimeout(120_000);

function expectDatabaseAway(response: Response): void {
  expect(response.status).toBe(503);
  expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
  expect(Number(response.headers['retry-after'])).toBeGreaterThan(0);
  expect(response.body).toEqual({
    type: 'about:blank',
    title: 'Service Unavailable',
    status: 503,
    detail: expect.stringMatching(/database/),
    requestId: response.headers['x-request-id'],
  });
}

describe('while the database is away (docs/api.md#errors)', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'mailroom-outage-'));
  const server = EmbeddedPostgresInChild.spawn(dataDir);
  const userId = newUserId();
  let t: TestApp;

  beforeAll(async () => {
    t = await bootTestApp({ DATABASE_URL: await server.start() });
  });

  afterAll(async () => {
    await t?.close();
    await server.close();
    await stopProcessesMentioning(dataDir);
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('answers 503 with Retry-After to sends and lists, and serves again once it is back', async () => {
    const before = await t.http
      .post('/sender/send')
      .set(bearer(userId))
      .send(sendBody({ subject: 'Before' }))
      .expect(201);

    await server.stop();
    const send = await t.http
      .post('/sender/send')
      .set(bearer(userId))
      .send(sendBody({ subject: 'During' }));
    const list = await t.http.get('/user/messages').set(bearer(userId));
    const one = await t.http.get(`/user/messages/${before.body.id}`).set(bearer(userId));
    expectDatabaseAway(send);
    expectDatabaseAway(list);
    expectDatabaseAway(one);
    expect((await t.http.get('/health/ready')).status).toBe(503);

    expect(await server.start()).toBe(t.config.databaseUrl);
    const after = await t.http
      .post('/sender/send')
      .set(bearer(userId))
      .send(sendBody({ subject: 'After' }))
      .expect(201);
    const { body } = await t.http.get('/user/messages').set(bearer(userId)).expect(200);
    expect(body.messages.map((m: { id: string; subject: string }) => [m.id, m.subject])).toEqual([
      [after.body.id, 'After'],
      [before.body.id, 'Before'],
    ]);
  });

  it('answers 503 to a request whose connection is terminated under it, and the next request works', async () => {
    // A user this process has not seen: the request counts its hit in the database, and waits there.
    const cutOff = newUserId('cut-off');
    const answer = await whileRequestWaitsInDatabase(
      t.config.databaseUrl!,
      () =>
        t.http
          .post('/sender/send')
          .set(bearer(cutOff))
          .send(sendBody({ subject: 'Cut off' }))
          .then((r) => r),
      async (locker) => {
        const terminated = await locker.query(
          `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'mailroom'`,
        );
        expect(terminated.rowCount).toBeGreaterThan(0);
      },
    );
    expectDatabaseAway(answer);
    await t.http
      .post('/sender/send')
      .set(bearer(cutOff))
      .send(sendBody({ subject: 'Next' }))
      .expect(201);
    const { body } = await t.http.get('/user/messages').set(bearer(cutOff)).expect(200);
    expect(body.messages.map((m: { subject: string }) => m.subject)).toEqual(['Next']);
  });
  it('answers 503, not 500, when a transaction loses its connection between two statements', async () => {
    // A restart ends idle connections too: one idle in a transaction learns it only from the
    // server's goodbye, and TypeORM then releases its runner, whose next statement fails with
    // "query runner already released". A batch's transaction waits idle while its rate-limit
    // charge runs on another connection: the test holds that charge on a lock meanwhile.
    const userId = newUserId('idle-in-transaction');
    // Seen once, so that the batch's own hit is admitted without waiting on the lock.
    await t.http.get('/user/messages').set(bearer(userId)).expect(200);
    const answer = await whileRequestWaitsInDatabase(
      t.config.databaseUrl!,
      () =>
        t.http
          .post('/sender/send/batch')
          .set(bearer(userId))
          .send({ messages: [sendBody({ subject: 'One' }), sendBody({ subject: 'Two' })] })
          .then((r) => r),
      async (locker) => {
        const idle = `SELECT pid FROM pg_stat_activity WHERE application_name = 'mailroom' AND state = 'idle in transaction'`;
        // The locker's transaction would see one snapshot of the activity; each look takes a new one.
        const idleNow = async () => (
          await locker.query(`SELECT pg_stat_clear_snapshot()`),
          (await locker.query(idle)).rowCount! > 0
        );
        await waitForAsync(idleNow, 'the batch transaction to wait idle');
        const terminated = await locker.query(`SELECT pg_terminate_backend(pid) FROM (${idle}) AS idle`);
        expect(terminated.rowCount).toBe(1);
        // The charge goes on, and the batch's transaction takes its next statement.
        await locker.query('COMMIT');
      },
    );
    expectDatabaseAway(answer);
    const { body } = await t.http.get('/user/messages').set(bearer(userId)).expect(200);
    expect(body.messages).toEqual([]);
    await t.http
      .post('/sender/send/batch')
      .set(bearer(userId))
      .send({ messages: [sendBody({ subject: 'Three' }), sendBody({ subject: 'Four' })] })
      .expect(201);
  });
  it('answers every request 2xx or 503 with Retry-After, never 500, through a restart under load', async () => {
    let running = true;
    const outcomes: { what: string; status: number; retryAfter?: string; detail?: string }[] = [];
    const requests = [
      (userId: string) => t.http.post('/sender/send').set(bearer(userId)).send(sendBody()),
      (userId: string) =>
        t.http.post('/sender/send').set(bearer(userId)).set('Idempotency-Key', userId).send(sendBody()),
      (userId: string) =>
        t.http
          .post('/sender/send/batch')
          .set(bearer(userId))
          .send({ messages: [sendBody(), sendBody({ subject: 'Two' })] }),
      (userId: string) => t.http.get('/user/messages').set(bearer(userId)),
    ];
    const client = async (n: number) => {
      for (let i = 0; running; i++) {
        const what = ['send', 'keyed send', 'batch', 'list'][(n + i) % requests.length];
        const response = await requests[(n + i) % requests.length](newUserId('restart'));
        outcomes.push({
          what,
          status: response.status,
          retryAfter: response.headers['retry-after'],
          detail: response.body?.detail,
        });
      }
    };
    const clients = Array.from({ length: 8 }, (_, n) => client(n));
    const countOf = (status: number) => outcomes.filter((o) => o.status === status).length;
    await waitFor(() => countOf(201) >= 20, 'sends before the restart');
    await server.stop();
    await waitFor(() => countOf(503) >= 20, 'refusals during the restart');
    expect(await server.start()).toBe(t.config.databaseUrl);
    const afterwards = outcomes.length;
    await waitFor(
      () => outcomes.slice(afterwards).filter((o) => o.status === 201).length >= 20,
      'sends after the restart',
    );
    running = false;
    await Promise.all(clients);

    const unexpected = outcomes.filter(
      (o) => ![200, 201, 503].includes(o.status) || (o.status === 503 && !(Number(o.retryAfter) > 0)),
    );
    expect(unexpected).toEqual([]);
  });
});
