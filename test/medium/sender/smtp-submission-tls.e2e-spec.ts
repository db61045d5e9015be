import { rmSync } from 'node:fs';
import { deliveringApp } from '../../support/delivering-app';
import { bearer, newUserId } from '../../support/tokens';
import {
  apiKeyFor,
  localhostCertificate,
  submissionPort,
  submitWithNodemailer,
  submitWithSwaks,
} from '../../support/submission/submission-clients';
import { itIfSwaks } from '../../support/swaks';

const itWithSwaks = itIfSwaks('Submission through swaks');

const CRLF = '\r\n';
const raw = (subject: string) =>
  Buffer.from(
    ['From: tls@sender.example', 'To: bob@rcpt.example', `Subject: ${subject}`, '', 'over TLS', ''].join(CRLF),
  );

describe('SMTP submission over STARTTLS (docs/api.md#smtp-submission)', () => {
  // Filled in before the app boots: deliveringApp reads its variables in its own beforeAll, which runs after this one.
  const env: Record<string, string> = { SUBMISSION_SMTP_PORT: '0', RATE_LIMIT_PER_MINUTE: '4' };
  let tls: Awaited<ReturnType<typeof localhostCertificate>>;
  beforeAll(async () => {
    tls = await localhostCertificate();
    Object.assign(env, { SUBMISSION_TLS_CERT: tls.certPath, SUBMISSION_TLS_KEY: tls.keyPath });
  });
  afterAll(() => rmSync(tls.dir, { recursive: true, force: true }));
  const { t, sink } = deliveringApp(env);

  itWithSwaks('refuses AUTH before STARTTLS with 538, to swaks and nodemailer alike, and stores nothing', async () => {
    const userId = newUserId('cleartext');
    const { key } = await apiKeyFor(t, userId);

    const { exitCode, transcript } = await submitWithSwaks(
      submissionPort(t),
      key,
      'tls@sender.example',
      ['bob@rcpt.example'],
      raw('clear'),
    );

    expect(exitCode).not.toBe(0);
    expect(transcript).toContain('STARTTLS');
    expect(transcript).toMatch(/<\*\*\s+538 /);
    expect(
      await submitWithNodemailer(submissionPort(t), key, {
        from: 'tls@sender.example',
        to: 'bob@rcpt.example',
        subject: 's',
        text: 't',
      }),
    ).toMatchObject({ accepted: false, code: 538 });
    const { body } = await t.http.get('/user/messages').set(bearer(userId)).expect(200);
    expect(body.total).toBe(0);
  });

  itWithSwaks(
    'takes mail after STARTTLS from nodemailer and from swaks, each verifying the certificate, and delivers it',
    async () => {
      const userId = newUserId('tls');
      const { key } = await apiKeyFor(t, userId);
      const port = submissionPort(t);

      const viaNodemailer = await submitWithNodemailer(
        port,
        key,
        { from: 'tls@sender.example', to: 'bob@rcpt.example', subject: 'nodemailer over TLS', text: 'secret' },
        { ca: tls.cert },
      );
      const viaSwaks = await submitWithSwaks(
        port,
        key,
        'tls@sender.example',
        ['bob@rcpt.example'],
        raw('swaks over TLS'),
        tls.certPath,
      );

      expect(viaNodemailer).toMatchObject({ accepted: true });
      expect(viaSwaks.exitCode).toBe(0);
      expect(viaSwaks.transcript).toMatch(/TLS started/);
      const ids = [
        viaNodemailer.accepted ? viaNodemailer.messageId : '',
        /Queued as (\S+)/.exec(viaSwaks.transcript)![1],
      ];
      // Waited for at the sink: polling the API would spend this user's small rate limit.
      await sink.waitUntil(() => ids.every((id) => sink.acceptedFor(id).length === 1));
      expect(ids.map((id) => sink.acceptedFor(id)[0].parsed.subject)).toEqual([
        'nodemailer over TLS',
        'swaks over TLS',
      ]);
    },
  );

  it("spends the user's RATE_LIMIT_PER_MINUTE like REST sends, and says 451 past it", async () => {
    const userId = newUserId('rate');
    // One request of the four.
    const { key } = await apiKeyFor(t, userId);
    const send = (subject: string) =>
      submitWithNodemailer(
        submissionPort(t),
        key,
        { from: 'tls@sender.example', to: 'bob@rcpt.example', subject, text: 't' },
        { ca: tls.cert },
      );

    const outcomes = [];
    for (const subject of ['1', '2', '3', '4']) outcomes.push(await send(subject));

    expect(outcomes.map((o) => o.accepted)).toEqual([true, true, true, false]);
    expect(outcomes[3]).toMatchObject({ code: 451, reply: expect.stringContaining('Rate limit') });
  });
});
