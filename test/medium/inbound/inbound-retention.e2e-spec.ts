// MESSAGE_RETENTION_DAYS removes received mail too (docs/inbound.md): mail received before midnight UTC
// that many days ago goes with its attachments; mail from within the window stays.
import MailComposer from 'nodemailer/lib/mail-composer';
import { InboundRetention } from '../../../src/inbound/inbound-retention';
import { sendWithNodemailer } from '../../support/bounces/smtp-clients';
import { newUserId } from '../../support/tokens';
import { bootInboundApp, TIMEOUT } from '../../support/inbound/inbound-app';

const DAY = 86_400_000;
// Retention 3 days, on 7 March at noon: mail received before 4 March is past the window.
const NOW = new Date('2026-03-07T12:00:00.000Z');
const CUTOFF = Date.parse('2026-03-04T00:00:00.000Z');

describe('inbound retention', () => {
  const app = bootInboundApp({ MESSAGE_RETENTION_DAYS: '3' });
  const { t } = app;

  it(
    'deletes the mail received before the window with its attachments, and keeps the rest',
    async () => {
      const userId = newUserId('retention');
      const domain = await app.receivingDomain(userId);
      for (const subject of ['old', 'at the cutoff', 'recent']) {
        const raw = await new MailComposer({
          from: 'cara@example.org',
          to: `desk@${domain.name}`,
          subject,
          text: subject,
          attachments: [{ filename: 'a.txt', content: subject }],
        })
          .compile()
          .build();
        expect(await sendWithNodemailer(app.port(), `desk@${domain.name}`, raw, 'cara@example.org')).toMatchObject({
          accepted: true,
        });
      }
      const moments: Record<string, number> = { old: CUTOFF - 1, 'at the cutoff': CUTOFF, recent: NOW.getTime() - DAY };
      for (const [subject, at] of Object.entries(moments))
        await t.db.query(`UPDATE inbound_mails SET received_at = $1 WHERE user_id = $2 AND subject = $3`, [
          new Date(at),
          userId,
          subject,
        ]);
      const ids = (await app.list(userId)).inbound.map((item: { id: string }) => item.id);

      expect(await t.app.get(InboundRetention).purge(NOW)).toBe(1);

      const kept = (await app.list(userId)).inbound.map((item: { subject: string }) => item.subject);
      expect(kept).toEqual(['recent', 'at the cutoff']);
      const [{ attachments }] = await t.db.query(
        `SELECT count(*)::int AS attachments FROM inbound_attachments WHERE inbound_id = ANY($1)`,
        [ids],
      );
      expect(attachments).toBe(2);
    },
    TIMEOUT,
  );
});
