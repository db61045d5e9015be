import { AddressInfo, connect } from 'node:net';
import { sendBody } from '../support/factories';
import { bearer, newUserId } from '../support/tokens';
import { bootTestApp, TestApp } from '../support/test-app';

describe('platform: health', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await bootTestApp();
  });
  afterAll(() => t.close());

  it('answers liveness without a token', async () => {
    const response = await t.http.get('/health').expect(200);
    expect(response.body).toEqual({ status: 'ok' });
  });

  it('answers readiness when the database answers', async () => {
    const response = await t.http.get('/health/ready').expect(200);
    expect(response.body.details.database.status).toBe('up');
  });
});

describe('platform: metrics', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await bootTestApp();
  });
  afterAll(() => t.close());

  it('serves Prometheus text without a token: requests by route, accepted messages, waiting jobs', async () => {
    const userId = newUserId();
    await t.http.post('/sender/send').set(bearer(userId)).send(sendBody()).expect(201);
    await t.http
      .get(`/user/messages/${'0'.repeat(8)}`)
      .set(bearer(userId))
      .expect(404);
    const response = await t.http.get('/metrics').expect(200);
    expect(response.headers['content-type']).toMatch(/^text\/plain/);
    expect(response.text).toMatch(/^mailroom_messages_accepted_total 1$/m);
    expect(response.text).toMatch(
      /^http_request_duration_seconds_count\{method="POST",route="\/sender\/send",status="201"\} 1$/m,
    );
    expect(response.text).toMatch(
      /^http_request_duration_seconds_count\{method="GET",route="\/user\/messages\/:id",status="404"\} 1$/m,
    );
    expect(response.text).toMatch(/^mailroom_queue_waiting_jobs \d+$/m);
    expect(response.text).toMatch(/^mailroom_webhook_queue_waiting_jobs \d+$/m);
    expect(response.text).toMatch(/^process_resident_memory_bytes \d+/m);
  });
});

describe('platform: requests Node cannot parse', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await bootTestApp();
  });
  afterAll(() => t.close());

  it('answers them with a 400 problem and closes the connection', async () => {
    const server = t.app.getHttpServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const socket = connect({ port, host: '127.0.0.1' });
    try {
      const received: Buffer[] = [];
      socket.on('data', (chunk: Buffer) => received.push(chunk));
      const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
      socket.write('NOT HTTP AT ALL\r\n\r\n');
      await closed;

      const raw = Buffer.concat(received).toString();
      expect(raw).toMatch(/^HTTP\/1\.1 400 /);
      expect(raw).toMatch(/\r\nContent-Type: application\/problem\+json\r\n/i);
      expect(JSON.parse(raw.slice(raw.indexOf('\r\n\r\n') + 4))).toMatchObject({
        type: 'about:blank',
        title: 'Bad Request',
        status: 400,
        requestId: expect.any(String),
      });
    } finally {
      socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
