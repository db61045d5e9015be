// The inbound listener starts and stops with the app (docs/scaling.md, docs/delivery-and-deliverability.md): worker processes only, and
// only with INBOUND_SMTP_PORT set (BOUNCE_DOMAIN or not: receiving domains need none, docs/inbound.md);
// a closed app leaves the port closed.
import { createConnection } from 'node:net';
import { InboundSmtpListener } from '../../../src/inbound/inbound-smtp.listener';
import { bootTestApp } from '../../support/test-app';
import { TIMEOUT } from '../../support/webhooks/webhook-app';
import { BOUNCE_DOMAIN } from '../../support/bounces/bounce-app';
import { converse, sendWithNodemailer } from '../../support/bounces/smtp-clients';
import { itIfPython } from '../../support/python';

const itWithPython = itIfPython("inbound-lifecycle: the tests that speak through Python's smtplib");

/** Whether something accepts TCP connections on the port. */
const listening = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port }, () => {
      socket.destroy();
      resolve(true);
    });
    socket.on('error', () => resolve(false));
  });

describe('the inbound listener with the app', () => {
  itWithPython(
    'listens in a worker process and stops when the app closes',
    async () => {
      const t = await bootTestApp(
        { ROLE: 'worker', BOUNCE_DOMAIN, INBOUND_SMTP_PORT: '0' },
        { isolatedDatabase: true },
      );
      let closed = false;
      try {
        const port = t.app.get(InboundSmtpListener).port!;
        const { replies } = await converse(port, [{ cmd: 'NOOP' }, { cmd: 'QUIT' }]);
        expect(replies.map(([code]) => code)).toEqual([250, 221]);
        await t.close();
        closed = true;
        expect(await listening(port)).toBe(false);
      } finally {
        if (!closed) await t.close();
      }
    },
    TIMEOUT,
  );

  it.each([
    ['an API process', { ROLE: 'api', BOUNCE_DOMAIN, INBOUND_SMTP_PORT: '0' }],
    ['a worker without INBOUND_SMTP_PORT', { ROLE: 'worker', BOUNCE_DOMAIN }],
  ])(
    'does not listen in %s',
    async (_label, env) => {
      const t = await bootTestApp(env, { isolatedDatabase: true });
      try {
        expect(t.app.get(InboundSmtpListener).port).toBeUndefined();
      } finally {
        await t.close();
      }
    },
    TIMEOUT,
  );

  it(
    'listens in a worker without BOUNCE_DOMAIN, for receiving domains (docs/inbound.md), refusing an address of no receiving domain (550)',
    async () => {
      const t = await bootTestApp({ ROLE: 'worker', INBOUND_SMTP_PORT: '0' }, { isolatedDatabase: true });
      try {
        const port = t.app.get(InboundSmtpListener).port!;
        expect(port).toEqual(expect.any(Number));
        const raw = Buffer.from('From: cara@example.org\r\nSubject: hi\r\n\r\nhi\r\n');
        expect(await sendWithNodemailer(port, 'desk@nobody-receives.example', raw, 'cara@example.org')).toMatchObject({
          accepted: false,
          code: 550,
        });
      } finally {
        await t.close();
      }
    },
    TIMEOUT,
  );
});
