// With PostgreSQL out of reach, a submission is deferred (4xx, so the client retries), never
// refused for good and never half stored; once the database is back, the same message goes in.
import { PassThrough } from 'node:stream';
import { SubmissionSmtpServer } from '../../../src/sender/submission/submission-smtp.server';
import { TcpProxy } from '../../support/tcp-proxy';
import { bootTestApp, TestApp } from '../../support/test-app';
import { bearer, newUserId } from '../../support/tokens';
import { apiKeyFor, submitWithNodemailer } from '../../support/submission/submission-clients';

jest.setTimeout(60_000);

describe('SMTP submission while the database is away (docs/api.md#errors, docs/api.md#smtp-submission)', () => {
  let proxy: TcpProxy;
  let t: TestApp;

  beforeAll(async () => {
    const database = new URL(process.env.TEST_DATABASE_URL!);
    proxy = await TcpProxy.listen({ host: database.hostname, port: Number(database.port || 5432) });
    database.host = `127.0.0.1:${proxy.port}`;
    t = await bootTestApp({
      DATABASE_URL: database.toString(),
      SUBMISSION_SMTP_PORT: '0',
      SUBMISSION_ALLOW_INSECURE_AUTH: 'true',
    });
  });

  afterAll(async () => {
    proxy?.swallowNewConnections(false);
    await t?.close();
    await proxy?.close();
  });

  it('answers with a temporary failure while it is away, and takes the message once it is back', async () => {
    const userId = newUserId('away');
    const { key } = await apiKeyFor(t, userId);
    const port = t.app.get(SubmissionSmtpServer).port!;
    const mail = { from: 'a@sender.example', to: 'b@rcpt.example', subject: 'while away', text: 'retry me' };

    proxy.swallowNewConnections();
    proxy.cutAll();
    const away = await submitWithNodemailer(port, key, mail);
    proxy.swallowNewConnections(false);

    // The key cannot be checked: AUTH itself is deferred (RFC 4954 §6: 454), not refused with 535.
    expect(away).toMatchObject({ accepted: false, code: 454 });
    const back = await submitWithNodemailer(port, key, mail);
    expect(back).toMatchObject({ accepted: true });
    const { body } = await t.http.get('/user/messages').set(bearer(userId)).expect(200);
    expect(body.messages.map((m: { subject: string }) => m.subject)).toEqual(['while away']);
  });

  it('defers a message whose database goes away during DATA with 451, storing nothing, and takes it again once back', async () => {
    const userId = newUserId('away-at-data');
    const { key } = await apiKeyFor(t, userId);
    const port = t.app.get(SubmissionSmtpServer).port!;
    const head = 'From: a@sender.example\r\nTo: b@rcpt.example\r\nSubject: cut at DATA\r\n\r\n';
    // The body arrives in two parts: the database goes away once the server is reading the first.
    const body = new PassThrough();
    let firstPartRead!: () => void;
    const reading = new Promise<void>((resolve) => (firstPartRead = resolve));
    body.once('data', () => firstPartRead());
    body.pause();
    body.write(head);
    const submitted = submitWithNodemailer(port, key, {
      envelope: { from: 'a@sender.example', to: ['b@rcpt.example'] },
      raw: body,
    });
    await reading;
    proxy.swallowNewConnections();
    proxy.cutAll();
    body.end('the rest of the body\r\n');
    const away = await submitted;
    proxy.swallowNewConnections(false);

    expect(away).toMatchObject({ accepted: false, code: 451 });
    const { body: none } = await t.http.get('/user/messages').set(bearer(userId)).expect(200);
    expect(none.total).toBe(0);
    const back = await submitWithNodemailer(port, key, {
      envelope: { from: 'a@sender.example', to: ['b@rcpt.example'] },
      raw: `${head}the rest of the body\r\n`,
    });
    expect(back).toMatchObject({ accepted: true });
    const { body: listed } = await t.http.get('/user/messages').set(bearer(userId)).expect(200);
    expect(listed.messages.map((m: { subject: string }) => m.subject)).toEqual(['cut at DATA']);
  });
});
