// Bulk mail through the outbox transport (no SMTP_URL): each recipient's copy is a file of its
// own, <id>.<position>.eml, carrying that recipient's List-Unsubscribe, read back with mailparser.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { simpleParser } from 'mailparser';
import { sendBody } from '../../support/factories';
import { bootTestApp, TestApp } from '../../support/test-app';
import { bearer, newUserId } from '../../support/tokens';
import { waitForStatus } from '../../support/wait-for';
import { unsubscribeTokens } from '../../support/unsubscribe/unsubscribe-support';

describe('bulk mail in the outbox (no SMTP_URL)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await bootTestApp({ ROLE: 'all', PUBLIC_URL: 'https://mail.example.test' }, { isolatedDatabase: true });
  });
  afterAll(() => t?.close());

  it('writes one file per recipient, each with the link that names that recipient, and no Bcc', async () => {
    const userId = newUserId('outbox-bulk');
    const { body } = await t.http
      .post('/sender/send')
      .set(bearer(userId))
      .send(
        sendBody({
          to: ['ada@example.com'],
          cc: ['grace@example.com'],
          bcc: ['linus@example.com'],
          bulkSendingId: 'spring',
        }),
      )
      .expect(201);
    const sent = await waitForStatus(t.http, userId, body.id, 'sent');

    expect(sent.statusHistory.at(-1).detail).toBe(
      `3 of 3 copies accepted, one per recipient: written to the outbox as ${body.id}.0.eml`,
    );
    const files = readdirSync(join(t.config.dataDir, 'outbox'))
      .filter((name) => name.startsWith(body.id))
      .sort();
    expect(files).toEqual([0, 1, 2].map((position) => `${body.id}.${position}.eml`));
    const tokens = unsubscribeTokens(t.config.deliverability.encryptionKey);
    for (const [position, file] of files.entries()) {
      const parsed = await simpleParser(readFileSync(join(t.config.dataDir, 'outbox', file)));
      const { unsubscribe } = parsed.headers.get('list') as unknown as { unsubscribe: { url: string; mail?: string } };
      // No BOUNCE_DOMAIN: the link alone, no mailto: address.
      expect(unsubscribe).toEqual({
        url: expect.stringMatching(/^https:\/\/mail\.example\.test\/unsubscribe\/[0-9a-f]{54}$/),
      });
      expect(tokens.decode(unsubscribe.url.split('/').pop()!)).toEqual({ messageId: body.id, recipient: position });
      expect(parsed.headers.has('bcc')).toBe(false);
    }
  });
});
