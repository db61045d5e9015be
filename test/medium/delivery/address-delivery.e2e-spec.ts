// The addresses POST /sender/send accepts reach a real SMTP server (smtp-server) as they were
// stored, in the envelope and in the headers as mailparser reads them; the ones it would refuse
// are refused at once (docs/api.md#sending).
import { sendBody } from '../../support/factories';
import { deliveringApp } from '../../support/delivering-app';
import { bearer, newUserId } from '../../support/tokens';
import { waitForStatus } from '../../support/wait-for';

describe('addresses over SMTP', () => {
  const { t, sink } = deliveringApp();

  it('delivers quoted local parts and non-ASCII addresses exactly as stored', async () => {
    const userId = newUserId();
    const to = ['".ada"@example.com', '"grace,hopper"@example.com', '"[ops]:team;"@example.com', 'josé@bücher.de'];
    const sender = '"billing."@example.com';

    const { body: message } = await t.http
      .post('/sender/send')
      .set(bearer(userId))
      .send(sendBody({ sender, to }))
      .expect(201);
    await waitForStatus(t.http, userId, message.id, 'sent');

    const [stored] = await t.db.query(`SELECT sender, recipients FROM messages WHERE id = $1`, [message.id]);
    expect(stored).toEqual({ sender, recipients: to });
    const [mail] = sink.acceptedFor(message.id);
    expect(mail.from).toBe(sender);
    expect(mail.to).toEqual(to);
    expect(mail.parsed.from?.value.map((a) => a.address)).toEqual([sender]);
    const headerTo = [mail.parsed.to ?? []].flat().flatMap((group) => group.value.map((a) => a.address));
    expect(headerTo).toEqual(to);
  });

  it.each([
    ['sender', { sender: '"a\r\nX-Injected: 1"@example.com' }],
    ['to', { to: ['"a\r\nX-Injected: 1"@example.com'] }],
    ['to', { to: ['"john doe"@example.com'] }],
    ['subject', { subject: ' \t ' }],
  ])('refuses %s in %j with 400, and stores nothing', async (field, overrides) => {
    const userId = newUserId();
    const response = await t.http.post('/sender/send').set(bearer(userId)).send(sendBody(overrides)).expect(400);
    expect(response.body.errors.map((e: { field: string }) => e.field)).toEqual([field]);
    const [{ count }] = await t.db.query(`SELECT count(*)::int AS count FROM messages WHERE user_id = $1`, [userId]);
    expect(count).toBe(0);
  });
});
