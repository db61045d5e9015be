import { sendBody } from './support/factories';
import { bearer, newUserId } from './support/tokens';
import { bootTestApp, TestApp } from './support/test-app';

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
    await t.http.get(`/user/messages/${'0'.repeat(8)}`).set(bearer(userId)).expect(404);
    const response = await t.http.get('/metrics').expect(200);
    expect(response.headers['content-type']).toMatch(/^text\/plain/);
    expect(response.text).toMatch(/^mailroom_messages_accepted_total 1$/m);
    expect(response.text).toMatch(/^http_request_duration_seconds_count\{method="POST",route="\/sender\/send",status="201"\} 1$/m);
    expect(response.text).toMatch(/^http_request_duration_seconds_count\{method="GET",route="\/user\/messages\/:id",status="404"\} 1$/m);
    expect(response.text).toMatch(/^mailroom_queue_waiting_jobs \d+$/m);
    expect(response.text).toMatch(/^mailroom_webhook_queue_waiting_jobs \d+$/m);
    expect(response.text).toMatch(/^process_resident_memory_bytes \d+/m);
  });
});
