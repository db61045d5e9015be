// The network between Mailroom and PostgreSQL fails in ways the server never announces: a
// connection cut with no goodbye, or a host that accepts and then never answers. Both are an
// outage (503 with Retry-After), not a bug (500), and neither may hang a request. The app reaches
// the run's test database through a TCP proxy that the test breaks.
import type { Response } from 'supertest';
import { sendBody } from '../../support/factories';
import { whileRequestWaitsInDatabase } from '../../support/request-in-database';
import { TcpProxy } from '../../support/tcp-proxy';
import { bootTestApp, TestApp } from '../../support/test-app';
import { bearer, newUserId } from '../../support/tokens';

jest.setTimeout(60_000);

function expectDatabaseAway(response: Response): void {
  expect(response.status).toBe(503);
  expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
  expect(Number(response.headers['retry-after'])).toBeGreaterThan(0);
  expect(response.body).toMatchObject({ status: 503, detail: expect.stringMatching(/database/) });
}

describe('when the network to PostgreSQL fails (docs/api.md#errors)', () => {
  const userId = newUserId();
  let proxy: TcpProxy;
  let t: TestApp;

  beforeAll(async () => {
    const database = new URL(process.env.TEST_DATABASE_URL!);
    proxy = await TcpProxy.listen({ host: database.hostname, port: Number(database.port || 5432) });
    database.host = `127.0.0.1:${proxy.port}`;
    t = await bootTestApp({ DATABASE_URL: database.toString() });
  });

  afterAll(async () => {
    proxy?.swallowNewConnections(false);
    await t?.close();
    await proxy?.close();
  });

  afterEach(() => proxy.swallowNewConnections(false));

  it('answers 503 to a request whose connection is cut without a word, and serves the next', async () => {
    // The request (the user's first: its hit counts in the database) waits inside the database on
    // a lock held straight on the server (not through the proxy) when the network drops.
    const answer = await whileRequestWaitsInDatabase(
      process.env.TEST_DATABASE_URL!,
      () =>
        t.http
          .post('/sender/send')
          .set(bearer(userId))
          .send(sendBody({ subject: 'Cut off' }))
          .then((r) => r),
      () => Promise.resolve(proxy.cutAll()),
    );
    expectDatabaseAway(answer);

    await t.http
      .post('/sender/send')
      .set(bearer(userId))
      .send(sendBody({ subject: 'After the cut' }))
      .expect(201);
    const { body } = await t.http.get('/user/messages').set(bearer(userId)).expect(200);
    expect(body.messages.map((m: { subject: string }) => m.subject)).toEqual(['After the cut']);
  });

  it('answers 503 within the connect timeout when the database host accepts and never answers', async () => {
    proxy.swallowNewConnections();
    proxy.cutAll();
    const started = Date.now();
    expectDatabaseAway(await t.http.get('/user/messages').set(bearer(userId)));
    expect(Date.now() - started).toBeLessThan(20_000);

    proxy.swallowNewConnections(false);
    const { body } = await t.http.get('/user/messages').set(bearer(userId)).expect(200);
    expect(body.messages.map((m: { subject: string }) => m.subject)).toContain('After the cut');
  });
});
