// An internationalized BOUNCE_DOMAIN written in A-labels, as DNS zone files and MX records name
// it (docs/delivery-and-deliverability.md): reports to its VERP addresses arrive with the domain in A-labels (senders speak
// SMTP in ASCII) or in U-labels (SMTPUTF8 senders), and the listener takes both.
import { randomUUID } from 'node:crypto';
import { RecipientTokens } from '../../../src/messages/recipient-token';
import { newUserId } from '../../support/tokens';
import { TIMEOUT } from '../../support/webhooks/webhook-app';
import { bootBounceApp, ENCRYPTION_KEY } from '../../support/bounces/bounce-app';
import { dsn } from '../../support/bounces/report-mail';
import { sendWithNodemailer, sendWithSmtplib } from '../../support/bounces/smtp-clients';
import { itIfPython } from '../../support/python';

const itWithPython = itIfPython("idn-bounce-domain: the tests that speak through Python's smtplib");

const A_LABEL = 'bounces.xn--bcher-kva.example';
const U_LABEL = 'bounces.bücher.example';

describe('an internationalized BOUNCE_DOMAIN given in A-labels', () => {
  const app = bootBounceApp({ BOUNCE_DOMAIN: A_LABEL });

  itWithPython(
    'takes a report at the VERP address in A-labels and in U-labels, and refuses another domain',
    async () => {
      const userId = newUserId('idn-bounce-domain');
      const to = `ada-${randomUUID()}@example.com`;
      const { id } = await app.deliver(userId, { to: [to] });
      const token = new RecipientTokens(ENCRYPTION_KEY, 'verp').encode({ messageId: id, recipient: 0 });
      const report = (rcpt: string, status: string) =>
        dsn(rcpt, id, [{ recipient: to, action: 'failed', status, diagnostic: `550 ${status} refused` }]);

      // smtplib speaks ASCII, as most senders do.
      expect(
        await sendWithSmtplib(
          app.inboundPort(),
          `bounces+${token}@${A_LABEL}`,
          report(`bounces+${token}@${A_LABEL}`, '5.7.1'),
        ),
      ).toEqual({ accepted: true });
      expect(
        await sendWithNodemailer(
          app.inboundPort(),
          `bounces+${token}@${U_LABEL}`,
          report(`bounces+${token}@${U_LABEL}`, '5.2.2'),
        ),
      ).toMatchObject({ accepted: true });
      expect(
        await sendWithSmtplib(app.inboundPort(), `bounces+${token}@xn--bcher-kva.example`, report('x', '5.1.1')),
      ).toMatchObject({ accepted: false, code: 550 });

      const message = await app.get(userId, id);
      expect(message.status).toBe('bounced');
      expect(message.statusHistory.slice(3).map((e: { detail: string }) => e.detail)).toEqual([
        '550 5.7.1 refused',
        '550 5.2.2 refused',
      ]);
    },
    TIMEOUT,
  );
});
