import { simpleParser } from 'mailparser';
import { composeMessage } from './compose';
import { envelopeOf, toMimeMessage } from './mime';
import type { OutgoingMail } from './outgoing-mail';

// A retry of some recipients (envelopeTo) goes to those alone, its headers the message's.
describe('envelopeOf and a retry of some recipients', () => {
  const mail: OutgoingMail = {
    id: '0190f3a4-7b1c-7e2a-9d4e-5f6a7b8c9d0e',
    from: 'Ada <ada@example.com>',
    to: ['Bob <bob@example.net>', 'carol@example.net'],
    cc: ['dan@example.net'],
    bcc: ['hidden@example.net'],
    replyTo: [],
    subject: 'Hello',
    html: '<p>Hello</p>',
    text: null,
    headers: {},
    attachments: [],
  };

  it('names every recipient, Bcc included, without envelopeTo; those named alone with it', () => {
    expect(envelopeOf(mail)).toEqual({
      from: 'ada@example.com',
      to: ['bob@example.net', 'carol@example.net', 'dan@example.net', 'hidden@example.net'],
    });
    expect(envelopeOf({ ...mail, envelopeTo: ['Bob <bob@example.net>', 'hidden@example.net'] })).toEqual({
      from: 'ada@example.com',
      to: ['bob@example.net', 'hidden@example.net'],
    });
  });

  it('gives the transport that envelope, the To and Cc headers unchanged and no Bcc header', async () => {
    const retry = { ...mail, envelopeTo: ['hidden@example.net'] };
    const mime = await toMimeMessage(retry);
    expect(mime).toMatchObject({ envelope: { from: 'ada@example.com', to: ['hidden@example.net'] }, bcc: [] });
    const parsed = await simpleParser(await composeMessage(retry));
    expect(
      [parsed.to, parsed.cc].map((a) => (Array.isArray(a) ? a : [a]).flatMap((x) => x!.value.map((v) => v.address))),
    ).toEqual([['bob@example.net', 'carol@example.net'], ['dan@example.net']]);
    expect(parsed.bcc).toBeUndefined();
  });
});
