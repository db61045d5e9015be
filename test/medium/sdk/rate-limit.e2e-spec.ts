// A 429 from the real app's rate limit (RATE_LIMIT_PER_MINUTE, docs/api.md#errors) through the
// SDK: thrown with its Retry-After when retrying is off, and waited out by default. The window is
// a minute long, so the second test waits for up to that minute, as a caller would.
import { MailroomError } from '../../../packages/sdk/src';
import { baseUrlOf, sdkAs, thrown } from '../../support/sdk';
import { bootTestApp, TestApp } from '../../support/test-app';
import { newUserId } from '../../support/tokens';

const LIMIT = 2;
const A_MINUTE_AND_MORE = 120_000;

describe('the SDK: the rate limit', () => {
  let t: TestApp;
  let baseUrl: string;
  beforeAll(async () => {
    t = await bootTestApp({ RATE_LIMIT_PER_MINUTE: String(LIMIT) });
    baseUrl = await baseUrlOf(t);
  });
  afterAll(() => t.close());

  it('throws a 429 with its Retry-After when retrying is off', async () => {
    const mailroom = sdkAs(baseUrl, newUserId('limited'), { retries: 0 });
    for (let i = 0; i < LIMIT; i++) await mailroom.emails.list();
    const error = await thrown(mailroom.emails.list());
    expect(error).toBeInstanceOf(MailroomError);
    expect(error).toMatchObject({ status: 429, title: 'Too Many Requests' });
    expect(error.retryAfter).toBeGreaterThanOrEqual(1);
    expect(error.retryAfter).toBeLessThanOrEqual(60);
    expect(error.requestId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it(
    'sends once the Retry-After has passed, by default',
    async () => {
      const userId = newUserId('waits');
      const probe = sdkAs(baseUrl, userId, { retries: 0 });
      for (let i = 0; i < LIMIT; i++) await probe.emails.list();
      const { retryAfter } = await thrown(probe.emails.list());
      const startedAt = Date.now();
      const sent = await sdkAs(baseUrl, userId).emails.send({
        sender: 'a@example.com',
        to: ['b@example.com'],
        subject: 'After the wait',
        text: 'Hello',
      });
      expect(sent.status).toBe('queued');
      // The client waited (about) what the server asked for, rather than failing or hammering.
      expect(Date.now() - startedAt).toBeGreaterThanOrEqual((retryAfter - 1) * 1000);
      expect((await probe.emails.list()).messages.map((message) => message.id)).toEqual([sent.id]);
    },
    A_MINUTE_AND_MORE,
  );
});
