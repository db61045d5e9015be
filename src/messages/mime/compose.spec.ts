import { generateKeyPairSync } from 'node:crypto';
import { simpleParser } from 'mailparser';
import { composeForReading, composeMessage } from './compose';
import type { OutgoingMail } from './outgoing-mail';

// The .eml of docs/api.md#reading-back is the delivered composition minus a copy's own parts and the signature:
// compared here with a signed copy as delivery composes it, read by mailparser.
describe('composeForReading', () => {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const mail: OutgoingMail = {
    id: '0190f3a4-7b1c-7e2a-9d4e-5f6a7b8c9d0e',
    from: 'Ada <ada@example.com>',
    to: ['bob@example.net'],
    cc: [],
    bcc: ['hidden@example.net'],
    replyTo: [],
    subject: 'Spring offers',
    html: '<p>Hello</p>',
    text: null,
    headers: { 'X-Campaign': 'spring' },
    attachments: [{ fileName: 'a.txt', contentType: 'text/plain', content: Buffer.from('attached'), contentId: null }],
    date: new Date('2026-03-01T12:00:00Z'),
  };
  const copy: OutgoingMail = {
    ...mail,
    headers: { ...mail.headers, 'List-Unsubscribe': '<https://mail.example.com/unsubscribe/0123abcd>' },
    copyFor: { address: 'bob@example.net', position: 0 },
    dkim: { domainName: 'example.com', keySelector: 'mr202611abcdef01', privateKey },
  };
  const keys = async (raw: Buffer) => (await simpleParser(raw)).headerLines.map((h) => h.key);

  it('composes what delivery does, without the signature, the Bcc or (given a copy) its envelope', async () => {
    const [delivered, read] = await Promise.all([composeMessage(copy), composeForReading(copy)]);

    expect(await keys(delivered)).toContain('dkim-signature');
    expect(await keys(read)).not.toContain('dkim-signature');
    expect((await keys(delivered)).filter((k) => k !== 'dkim-signature')).toEqual(await keys(read));
    expect((await simpleParser(read)).date).toEqual(mail.date);
    expect(read.toString('latin1')).not.toContain('hidden@example.net');
  });

  it('adds no per-copy header of its own: the base message reads back without List-Unsubscribe', async () => {
    expect(await keys(await composeForReading(mail))).not.toContain('list-unsubscribe');
  });
});
