// A 429 from the real app's rate limit (RATE_LIMIT_PER_MINUTE, docs/api.md#errors) through the
// SDK: thrown with the Retry-After the server sent when retrying is off. Waiting it out is
// packages/sdk/test/retries.spec.ts's, against a scripted server asking for 1 s: the real
// window is a minute, which CI would spend idle in each of its two runs.
import { MailroomError } from '../../../packages/sdk/src';
import { baseUrlOf, sdkAs, thrown } from '../../support/sdk';
import { bootTestApp, TestApp } from '../../support/test-app';
import { newUserId } from '../../support/tokens';

const LIMIT = 2;

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
});
