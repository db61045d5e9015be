// One rule whatever the concurrency (docs/api.md#smtp-submission): a message the API would refuse is refused at DATA
// with a 5xx every time. 20 identical submissions of 19 MiB at once (nodemailer), their one part
// HTML of over 5 MiB: each is refused with 554 naming html, and nothing is stored. The HTML nests
// deeper than html-to-text can walk: mailparser's own text derivation overflowed the stack on it
// (at a depth that depends on the stack the parse runs on), dropped the HTML and failed the parse.
import { bootTestApp, TestApp } from '../support/test-app';
import { bearer, newUserId } from '../support/tokens';
import { apiKeyFor, submissionPort, submitWithNodemailer } from '../support/submission/submission-clients';

const MiB = 1024 * 1024;
const CLIENTS = 20;

describe('concurrent identical submissions (docs/api.md#smtp-submission)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await bootTestApp({ SUBMISSION_SMTP_PORT: '0', SUBMISSION_ALLOW_INSECURE_AUTH: 'true' });
  });
  afterAll(() => t?.close());

  it('refuses every one of 20 concurrent 19 MiB submissions whose HTML is over 5 MiB with 554, and stores none', async () => {
    const userId = newUserId('same-verdict');
    const { key } = await apiKeyFor(t, userId);
    const depth = 10_000;
    const line = '<p>' + 'word '.repeat(18) + '</p>\r\n';
    const html = '<div>'.repeat(depth) + line.repeat(Math.floor((18.5 * MiB) / line.length)) + '</div>'.repeat(depth);
    const outcomes = await Promise.all(
      Array.from({ length: CLIENTS }, () =>
        submitWithNodemailer(submissionPort(t), key, {
          from: 'a@sender.example',
          to: 'b@rcpt.example',
          subject: 'same every time',
          html,
        }),
      ),
    );

    expect(outcomes.map((o) => (o.accepted ? 250 : o.code))).toEqual(Array(CLIENTS).fill(554));
    for (const outcome of outcomes) expect(outcome.reply).toMatch(/html/);
    const { body } = await t.http.get('/user/messages').set(bearer(userId)).expect(200);
    expect(body.total).toBe(0);
  }, 300_000);
});
