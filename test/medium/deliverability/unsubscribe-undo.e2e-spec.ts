// The unsubscribe pages name the sender the reader leaves, and offer an undo
// (POST /unsubscribe/{token}/resubscribe), against a real database, with tokens made under the app's own key.
import type { AddressInfo } from 'node:net';
import { RecipientTokens } from '../../../src/messages/recipient-token';
import { bootTestApp, TestApp } from '../../support/test-app';
import { storeMessage } from '../../support/factories';
import { bearer, newUserId } from '../../support/tokens';
import { address, bulkMessage, suppressionsOf, unsubscribeTokens } from '../../support/unsubscribe/unsubscribe-support';

const ONE_CLICK = 'List-Unsubscribe=One-Click';
const FORM = 'application/x-www-form-urlencoded';

describe('the sender named, and the undo (POST /unsubscribe/{token}/resubscribe)', () => {
  let t: TestApp;
  let tokens: ReturnType<typeof unsubscribeTokens>;

  beforeAll(async () => {
    t = await bootTestApp();
    await t.app.listen(0, '127.0.0.1');
    tokens = unsubscribeTokens(t.config.deliverability.encryptionKey);
  });
  afterAll(() => t?.close());

  const post = (token: string) => t.http.post(`/unsubscribe/${token}`);

  const HTML = 'text/html,application/xhtml+xml,*/*;q=0.8';
  const undo = (token: string) => t.http.post(`/unsubscribe/${token}/resubscribe`);

  it("names the address of the message's sender on the confirmation and the answer, escaped", async () => {
    const userId = newUserId('unsub-sender');
    const message = await storeMessage(t.db, userId, {
      sender: 'News & Co <n&ws@example.com>',
      recipients: ['ada@example.com'],
      bulkSendingId: 'spring',
    });
    const token = tokens.encode({ messageId: message.id, recipient: 0 });

    const confirmation = await t.http.get(`/unsubscribe/${token}`).set('Accept', HTML).expect(200);
    const answer = await post(token).set('Accept', HTML).type(FORM).send(ONE_CLICK).expect(200);

    expect(confirmation.text).toContain(
      '<p>Stop bulk email from <strong>n&#38;ws@example.com</strong> to <strong>a…@example.com</strong>?</p>',
    );
    expect(answer.text).toContain(
      '<p><strong>n&#38;ws@example.com</strong> no longer sends bulk email to <strong>a…@example.com</strong>.</p>',
    );
    // The display name is not the sender's address, and the page shows what it is sure of.
    expect(confirmation.text).not.toContain('News');
  });

  it('offers the undo after an unsubscribe: a form posting to the resubscribe route of the same token', async () => {
    const userId = newUserId('unsub-undo-form');
    const message = await bulkMessage(t.db, userId, { to: ['ada@example.com'] });
    const token = tokens.encode({ messageId: message.id, recipient: 0 });

    const answer = await post(token).set('Accept', HTML).type(FORM).send(ONE_CLICK).expect(200);

    // Relative to /unsubscribe/<token>: /unsubscribe/<token>/resubscribe.
    expect(answer.text).toContain(
      `<form method="post" action="${token}/resubscribe"><button type="submit">Undo</button></form>`,
    );
    expect(new URL(`${token}/resubscribe`, `http://mailroom.test/prefix/unsubscribe/${token}`).pathname).toBe(
      `/prefix/unsubscribe/${token}/resubscribe`,
    );
  });

  it("takes only the address's unsubscribe entry off the owner's list, and says so", async () => {
    const userId = newUserId('unsub-undo');
    const [to, other] = [address('to'), address('other')];
    const message = await bulkMessage(t.db, userId, { to: [to, other] });
    const token = tokens.encode({ messageId: message.id, recipient: 0 });
    await post(token).expect(200);
    await post(tokens.encode({ messageId: message.id, recipient: 1 })).expect(200);
    expect((await suppressionsOf(t.http, userId)).map((s) => s.email).sort()).toEqual([to, other].sort());

    const answer = await undo(token).type(FORM).send('').expect(200);

    expect(answer.body).toEqual({ resubscribed: true });
    expect(answer.headers['cache-control']).toBe('no-store');
    expect((await suppressionsOf(t.http, userId)).map((s) => s.email)).toEqual([other]);
    // A second undo has nothing left to undo.
    await undo(token).expect(200, { resubscribed: false });
    expect((await suppressionsOf(t.http, userId)).map((s) => s.email)).toEqual([other]);
  });

  it.each(['hard_bounce', 'complaint', 'manual'])('never takes a %s entry off the list', async (reason) => {
    const userId = newUserId('unsub-undo-kept');
    const to = address('kept');
    const message = await bulkMessage(t.db, userId, { to: [to] });
    await t.db.query(
      `INSERT INTO suppressions (user_id, email, reason, scope, message_id, created_at) VALUES ($1, $2, $3, 'all', $4, now())`,
      [userId, to, reason, message.id],
    );
    const token = tokens.encode({ messageId: message.id, recipient: 0 });
    await post(token).expect(200);
    const before = await suppressionsOf(t.http, userId);

    const answer = await undo(token).set('Accept', HTML).expect(200);

    expect(answer.text).toContain('<h1>Nothing to undo</h1>');
    expect(await suppressionsOf(t.http, userId)).toEqual(before);
    expect(before.map((s) => s.reason)).toEqual([reason]);
  });

  it("never lifts the owner's own bulk entry, posted after the reader had unsubscribed", async () => {
    const userId = newUserId('unsub-undo-owner-bulk');
    const to = address('owner-bulk');
    const message = await bulkMessage(t.db, userId, { to: [to] });
    const token = tokens.encode({ messageId: message.id, recipient: 0 });
    await post(token).expect(200);
    // The owner stops bulk mail to the address too, by hand (docs/delivery-and-deliverability.md: a manual entry may ask for bulk).
    await t.http.post('/user/suppressions').set(bearer(userId)).send({ email: to, scope: 'bulk' }).expect(201);

    await undo(token).expect(200);

    // The reader's undo takes back the reader's unsubscribe, not the owner's request.
    expect((await suppressionsOf(t.http, userId)).map((s) => [s.email, s.scope])).toEqual([[to, 'bulk']]);
  });

  it('answers a browser with a page that names the sender and offers the unsubscribe again', async () => {
    const userId = newUserId('unsub-undo-page');
    const message = await bulkMessage(t.db, userId, { to: ['grace@example.org'] });
    const token = tokens.encode({ messageId: message.id, recipient: 0 });
    await post(token).expect(200);

    const answer = await undo(token).set('Accept', HTML).type(FORM).send('').expect(200);

    expect(answer.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(answer.headers['content-security-policy']).toContain("form-action 'self'");
    expect(answer.text).toContain('<h1>You are subscribed again</h1>');
    expect(answer.text).toContain(
      '<p><strong>billing@example.com</strong> may send bulk email to <strong>g…@example.org</strong> again.</p>',
    );
    expect(answer.text).toContain(`<form method="post" action="../${token}">`);
    expect(await suppressionsOf(t.http, userId)).toEqual([]);
  });

  it.each([
    ['its MAC altered', (valid: string) => valid.slice(0, -1) + (valid.endsWith('0') ? '1' : '0')],
    [
      'a VERP token of the same recipient',
      (_valid: string, messageId: string) =>
        new RecipientTokens(t.config.deliverability.encryptionKey, 'verp').encode({ messageId, recipient: 0 }),
    ],
    [
      'a position past the last recipient',
      (_valid: string, messageId: string) => tokens.encode({ messageId, recipient: 1 }),
    ],
    ['one character past the format (55)', (valid: string) => `${valid}0`],
  ])('answers a token with %s with a 404 (problem, or page for a browser), changing nothing', async (_, forge) => {
    const userId = newUserId('unsub-undo-forged');
    const message = await bulkMessage(t.db, userId, { to: [address('to')] });
    const valid = tokens.encode({ messageId: message.id, recipient: 0 });
    await post(valid).expect(200);
    const before = await suppressionsOf(t.http, userId);

    const problem = await undo(forge(valid, message.id)).expect(404);
    const page = await undo(forge(valid, message.id)).set('Accept', HTML).expect(404);

    expect(problem.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(problem.body).toMatchObject({ status: 404, detail: 'This unsubscribe link does not exist.' });
    expect(page.text).toContain('<h1>This unsubscribe link is not valid</h1>');
    expect(await suppressionsOf(t.http, userId)).toEqual(before);
    expect(before).toHaveLength(1);
  });

  it('takes a body of exactly 1024 bytes and refuses one of 1025 with a 413 problem, changing nothing', async () => {
    const userId = newUserId('unsub-undo-large');
    const message = await bulkMessage(t.db, userId, { to: [address('to')] });
    const token = tokens.encode({ messageId: message.id, recipient: 0 });
    await post(token).expect(200);
    const before = await suppressionsOf(t.http, userId);

    const refused = await undo(token).type(FORM).send('a'.repeat(1025)).expect(413);

    expect(refused.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(await suppressionsOf(t.http, userId)).toEqual(before);
    await undo(token).type(FORM).send('a'.repeat(1024)).expect(200, { resubscribed: true });
    expect(await suppressionsOf(t.http, userId)).toEqual([]);
  });

  it('speaks plain HTTP to a client nobody here wrote (fetch): unsubscribe, then undo', async () => {
    const userId = newUserId('unsub-undo-fetch');
    const to = address('to');
    const message = await bulkMessage(t.db, userId, { to: [to] });
    const { address: host, port } = t.app.getHttpServer().address() as AddressInfo;
    const url = `http://${host}:${port}/unsubscribe/${tokens.encode({ messageId: message.id, recipient: 0 })}`;

    const unsubscribed = await fetch(url, { method: 'POST', body: ONE_CLICK, headers: { 'Content-Type': FORM } });
    expect(await unsubscribed.json()).toEqual({ unsubscribed: true });
    expect((await suppressionsOf(t.http, userId)).map((s) => s.email)).toEqual([to]);

    const undone = await fetch(`${url}/resubscribe`, { method: 'POST' });
    expect({ status: undone.status, body: await undone.json() }).toEqual({
      status: 200,
      body: { resubscribed: true },
    });
    expect(await suppressionsOf(t.http, userId)).toEqual([]);
  });
});
