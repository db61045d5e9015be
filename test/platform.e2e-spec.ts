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
