// STARTTLS on the inbound listener with INBOUND_TLS_CERT/_KEY (docs/inbound.md), spoken by clients
// nobody here wrote: nodemailer requiring TLS and trusting only the test's certificate, and
// swaks with --tls; each mail is stored as any other.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createTransport } from 'nodemailer';
import { converse } from '../../support/bounces/smtp-clients';
import { itIfPython } from '../../support/python';
import { itIfSwaks, SWAKS } from '../../support/swaks';
import { localhostCertificate } from '../../support/submission/submission-clients';
import { rawMail } from '../../support/inbound/hostile-mail';
import { bootInboundApp, TIMEOUT } from '../../support/inbound/inbound-app';

const run = promisify(execFile);
const itWithSwaks = itIfSwaks('inbound-tls: mail through swaks');
const itWithPython = itIfPython("inbound-tls: the EHLO keywords read by Python's smtplib");

describe('the inbound listener with STARTTLS', () => {
  const env: Record<string, string> = {};
  let tls: Awaited<ReturnType<typeof localhostCertificate>>;
  // Before the app boots: bootInboundApp reads `env` in its own beforeAll, which runs after this one.
  beforeAll(async () => {
    tls = await localhostCertificate();
    Object.assign(env, { INBOUND_TLS_CERT: tls.certPath, INBOUND_TLS_KEY: tls.keyPath });
  });
  afterAll(() => rmSync(tls.dir, { recursive: true, force: true }));
  const app = bootInboundApp(env);
  const mailbox = app.mailbox('tls');

  const subjects = async () =>
    (await app.list(mailbox.userId, { take: 100 })).inbound.map((item: { subject: string }) => item.subject);

  itWithPython('offers STARTTLS and SIZE, and no AUTH', async () => {
    const { features } = await converse(app.port(), [{ cmd: 'QUIT' }]);
    expect(features).toHaveProperty('starttls');
    expect(features.size).toBe(String(10 * 1024 * 1024));
    expect(features).not.toHaveProperty('auth');
  });

  it(
    'stores a mail that nodemailer sends only over TLS, verifying the certificate',
    async () => {
      const transport = createTransport({
        host: '127.0.0.1',
        port: app.port(),
        requireTLS: true,
        tls: { ca: [tls.cert], servername: 'localhost' },
        name: 'tls.example.net',
      });
      try {
        const info = await transport.sendMail({
          envelope: { from: 'cara@example.org', to: [mailbox.to] },
          raw: rawMail(['From: cara@example.org', 'Subject: over tls'], 'encrypted on the way'),
        });
        expect(String(info.response)).toMatch(/^250 /);
      } finally {
        transport.close();
      }
      expect(await subjects()).toContain('over tls');
    },
    TIMEOUT,
  );

  itWithSwaks(
    'stores a mail that swaks sends after STARTTLS',
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'swaks-inbound-'));
      try {
        const file = join(dir, 'mail.eml');
        writeFileSync(file, rawMail(['From: cara@example.org', 'Subject: swaks over tls'], 'hello from swaks'));
        const args = ['--server', '127.0.0.1', '--port', String(app.port()), '--from', 'cara@example.org'];
        const { stdout } = await run(SWAKS, [
          ...args,
          '--to',
          mailbox.to,
          '--tls',
          '--ehlo',
          'swaks.example.net',
          '--data',
          `@${file}`,
        ]);
        expect(stdout).toMatch(/<-\s+220 .*TLS/i);
        expect(stdout).toMatch(/<~\s+250 /);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
      expect(await subjects()).toContain('swaks over tls');
    },
    TIMEOUT,
  );
});
