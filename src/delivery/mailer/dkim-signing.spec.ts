import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { dkimVerify } from 'mailauth/lib/dkim/verify';
import { AppConfig } from '../../platform/config/app-config';
import type { OutgoingMail } from '../../messages';
import { OutboxMailer } from './outbox.mailer';

// The message as nodemailer composes it for every transport (here the outbox's), signed as docs/delivery-and-deliverability.md
// asks, checked by mailauth with a resolver that answers the key record a user would publish.
describe('DKIM signature of a composed message', () => {
  const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const record = `v=DKIM1; k=rsa; p=${publicKey.export({ type: 'spki', format: 'der' }).toString('base64')}`;
  const resolver = (name: string) =>
    name === 'mr202611abcdef01._domainkey.example.com'
      ? Promise.resolve([[record]])
      : Promise.reject(Object.assign(new Error('no such name'), { code: 'ENOTFOUND' }));
  const dataDir = mkdtempSync(join(tmpdir(), 'mailroom-dkim-'));
  const sut = new OutboxMailer({ dataDir } as AppConfig);
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  const mail = (id: string, dkim?: OutgoingMail['dkim']): OutgoingMail => ({
    id,
    from: 'Ada <ada@news.example.com>',
    to: ['bob@example.net'],
    cc: ['carol@example.net'],
    bcc: [],
    replyTo: ['help@example.com'],
    subject: 'Spring offers',
    html: '<p>Hello</p>',
    text: null,
    headers: {
      'List-Unsubscribe': '<https://mail.example.com/unsubscribe/0123abcd>',
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
      'X-Campaign': 'spring',
    },
    attachments: [{ fileName: 'a.txt', contentType: 'text/plain', content: Buffer.from('attached'), contentId: null }],
    dkim,
  });
  const composed = async (outgoing: OutgoingMail) => {
    await sut.send(outgoing);
    return readFileSync(join(dataDir, 'outbox', `${outgoing.id}.eml`), 'latin1');
  };
  const verify = async (raw: string) => (await dkimVerify(raw, { resolver })).results;

  it('covers the headers a reader trusts and the one-click unsubscribe pair, relaxed/relaxed, and passes', async () => {
    const raw = await composed(
      mail('0190f3a4-7b1c-7e2a-9d4e-5f6a7b8c9d01', {
        domainName: 'example.com',
        keySelector: 'mr202611abcdef01',
        privateKey,
      }),
    );

    const [result, ...others] = await verify(raw);

    expect(others).toEqual([]);
    expect(result).toMatchObject({
      signingDomain: 'example.com',
      selector: 'mr202611abcdef01',
      status: { result: 'pass' },
    });
    const signed = (result as unknown as { signingHeaders: { keys: string } }).signingHeaders.keys
      .toLowerCase()
      .split(':')
      .map((name) => name.trim());
    expect(signed).toEqual(
      expect.arrayContaining([
        'from',
        'to',
        'cc',
        'reply-to',
        'subject',
        'date',
        'message-id',
        'mime-version',
        'content-type',
        'list-unsubscribe',
        'list-unsubscribe-post',
      ]),
    );
    expect(raw).toMatch(/^DKIM-Signature: v=1; a=rsa-sha256; c=relaxed\/relaxed; d=example.com;/m);
  });

  // mailauth reports a body hash mismatch as neutral, with a comment (RFC 6376 §6.3 lets a verifier say so).
  it.each([
    ['List-Unsubscribe', /unsubscribe\/0123abcd/, 'unsubscribe/9999abcd', { result: 'fail' }],
    ['List-Unsubscribe-Post', /List-Unsubscribe=One-Click/, 'List-Unsubscribe=Two-Clicks', { result: 'fail' }],
    ['the body', /<p>Hello<\/p>/, '<p>Hullo</p>', { result: 'neutral', comment: 'body hash did not verify' }],
  ])('does not pass once %s is changed after signing', async (_, part, replacement, verdict) => {
    const raw = await composed(
      mail('0190f3a4-7b1c-7e2a-9d4e-5f6a7b8c9d02', {
        domainName: 'example.com',
        keySelector: 'mr202611abcdef01',
        privateKey,
      }),
    );
    const changed = raw.replace(part, replacement);
    expect(changed).not.toBe(raw);

    expect((await verify(changed))[0].status).toMatchObject(verdict);
  });

  it('writes no signature without a key', async () => {
    const raw = await composed(mail('0190f3a4-7b1c-7e2a-9d4e-5f6a7b8c9d03'));

    expect(raw).not.toMatch(/^DKIM-Signature:/im);
    // Of arrays, toMatchObject asks the same length: one result, and it is none.
    expect(await verify(raw)).toMatchObject([{ status: { result: 'none' } }]);
  });
});
