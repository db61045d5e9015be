// A sender whose DNS never answers (issue 33, item 11): its mail waits for its SPF and DMARC
// look-ups to time out, and nobody else's mail waits with it. The real DNS server on loopback
// never answers for one domain; more of its mails than the listener reads at once arrive, then an
// ordinary mail, which is stored while every one of them is still waiting.
import { createTransport } from 'nodemailer';
import { rawMail } from '../../support/inbound/hostile-mail';
import { bootInboundApp, newDomain, TIMEOUT } from '../../support/inbound/inbound-app';
import { InboundMailLimits } from '../../../src/inbound/inbound-mail-limits';

describe('a sender whose DNS never answers', () => {
  const app = bootInboundApp();
  const mailbox = app.mailbox('dns-timeout');

  const send = async (from: string, subject: string) => {
    const transport = createTransport({
      host: '127.0.0.1',
      port: app.port(),
      ignoreTLS: true,
      name: 'mx.sender.example',
    });
    try {
      const info = await transport.sendMail({
        envelope: { from, to: [mailbox.to] },
        raw: rawMail([`From: ${from}`, `Subject: ${subject}`], 'hello'),
      });
      return String(info.response);
    } finally {
      transport.close();
    }
  };

  it(
    'delays only its own mail, judged temperror, while other mail is stored at once',
    async () => {
      const silent = newDomain('silent');
      app.dns.silence(silent);
      const count = app.t.app.get(InboundMailLimits).smallMailsAtOnce + 2;
      const answered: string[] = [];
      const started = Date.now();
      const slow = Array.from({ length: count }, (_, i) =>
        send(`ana@${silent}`, `slow ${i}`).then((reply) => {
          answered.push(`slow ${i}`);
          return reply;
        }),
      );
      // Every slow mail is being judged: the server has been asked about the silent domain for each.
      const asked = () => app.dns.queries.filter((name) => name.toLowerCase().endsWith(silent)).length;
      while (asked() < count) await new Promise((resolve) => setTimeout(resolve, 20));

      const quick = newDomain('quick');
      app.dns.publish(quick, 'v=spf1 ip4:127.0.0.1 -all');
      expect(await send(`bo@${quick}`, 'quick')).toMatch(/^250 /);
      answered.push('quick');
      expect(answered).toEqual(['quick']);

      expect(await Promise.all(slow)).toEqual(Array(count).fill(expect.stringMatching(/^250 /)));
      console.log(`${count} mails from a silent domain answered within ${Date.now() - started} ms`);
      const { inbound } = await app.list(mailbox.userId, { take: 100 });
      const verdicts = (subject: string) =>
        inbound.find((item: { subject: string }) => item.subject === subject).authentication;
      expect(verdicts('quick')).toEqual({ spf: 'pass', dkim: 'none', dmarc: 'none' });
      expect(verdicts('slow 0')).toMatchObject({ spf: 'temperror' });
    },
    TIMEOUT,
  );
});
