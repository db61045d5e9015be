// The invitation as the invitee receives it (docs/teams.md#invitations): delivered over real SMTP
// (nodemailer to smtp-server, read back by mailparser) from SYSTEM_MAIL_FROM, its link the one that
// accepts the invitation.
import { SmtpSink } from '../../support/smtp-sink';
import { PASSWORD } from '../../support/members';
import { bootTestApp, TestApp } from '../../support/test-app';
import { bearer, newUserId } from '../../support/tokens';

describe('the invitation mail over SMTP', () => {
  const sink = new SmtpSink();
  let t: TestApp;

  beforeAll(async () => {
    const port = await sink.start();
    t = await bootTestApp(
      {
        ROLE: 'all',
        SMTP_URL: sink.url(port),
        PUBLIC_URL: 'https://mail.example.com',
        SYSTEM_MAIL_FROM: 'Mail Team <team@mail.example.com>',
      },
      { isolatedDatabase: true },
    );
  });
  afterAll(async () => {
    await t.close();
    await sink.stop();
  });

  it('reaches the invitee from SYSTEM_MAIL_FROM with a link that accepts the invitation', async () => {
    const account = newUserId();
    const email = `${newUserId('invitee')}@example.com`;
    await t.http.post('/user/members').set(bearer(account)).send({ email, role: 'admin' }).expect(201);

    await sink.waitUntil(() => sink.accepted.some((m) => m.to.includes(email)));
    const mail = sink.accepted.find((m) => m.to.includes(email))!;
    expect(mail.parsed.from?.value).toEqual([{ name: 'Mail Team', address: 'team@mail.example.com' }]);
    expect(mail.parsed.to).toMatchObject({ value: [{ address: email }] });
    expect(mail.parsed.subject).toBe('You are invited to Mailroom');
    const link = /https:\/\/mail\.example\.com\/console\/invitation\/([A-Za-z0-9_-]{43})/.exec(mail.parsed.text ?? '');
    expect(link).not.toBeNull();

    const accepted = await t.http.post(`/invitations/${link![1]}/accept`).send({ password: PASSWORD }).expect(200);
    expect(accepted.body).toMatchObject({ member: { email, role: 'admin', status: 'active' }, role: 'admin' });
  });
});
