// npm run bench:inbound [-- --mails 400]
// Received mails per second (docs/inbound.md): 8 concurrent nodemailer clients each send their share of
// `--mails` mails of about 50 KB with one attachment to a receiving domain of a ROLE=all Mailroom
// process (each stored, read by mailparser, judged by mailauth against a loopback DNS server),
// against smtp-server alone receiving the same mails to nowhere in a process of its own, in one run.
// Each client's connection carries 20 mails, the listener's limit of transactions a session.
import { fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import { createTransport } from 'nodemailer';
import MailComposer from 'nodemailer/lib/mail-composer';
import { freePort } from '../src/platform/free-port';
import { TestDnsServer } from '../test/support/dns-server';
import {
  BENCH_JWT_SECRET,
  benchDatabase,
  benchToken,
  runBench,
  runConcurrently,
  startMailroomProcess,
} from './support';

const CLIENTS = 8;
const DOMAIN = 'inbound-bench.example.com';

/** smtp-server taking every mail and dropping it, as the baseline: the same library our listener is built on. */
const NOWHERE = `
const { SMTPServer } = require('smtp-server');
const server = new SMTPServer({ authOptional: true, disabledCommands: ['AUTH', 'STARTTLS'], size: 10485760, logger: false,
  onData(stream, session, callback) { stream.on('data', () => {}); stream.on('end', () => callback()); } });
server.listen(Number(process.argv[1]), '127.0.0.1', () => process.send('ready'));
`;

async function sendAll(port: number, mails: Buffer[], to: string): Promise<number> {
  const transports = Array.from({ length: CLIENTS }, () =>
    createTransport({ host: '127.0.0.1', port, ignoreTLS: true, pool: true, maxConnections: 1, maxMessages: 20 }),
  );
  let client = 0;
  const started = process.hrtime.bigint();
  await runConcurrently(mails.length, CLIENTS, async (i) => {
    const transport = transports[client++ % CLIENTS];
    await transport.sendMail({ envelope: { from: 'cara@sender.example', to: [to] }, raw: mails[i] });
  });
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  for (const transport of transports) transport.close();
  return mails.length / seconds;
}

async function inboundBench(count: number): Promise<void> {
  const dns = new TestDnsServer();
  const database = await benchDatabase();
  const smtpPort = await freePort();
  const mailroom = await startMailroomProcess(database.url, {
    role: 'all',
    env: { JWT_SECRET: BENCH_JWT_SECRET, INBOUND_SMTP_PORT: String(smtpPort), DNS_SERVERS: await dns.start() },
  });
  const token = benchToken('bench-inbound');
  const api = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`http://127.0.0.1:${mailroom.port}${path}`, {
      method,
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
    return (await response.json()) as any;
  };
  const domain = await api('POST', '/domains', { name: DOMAIN });
  const dkim = domain.dnsRecords.find((record: { purpose: string }) => record.purpose === 'dkim');
  dns.publish(dkim.name, dkim.value);
  await api('POST', `/domains/${domain.id}/verify`);
  await api('PATCH', `/domains/${domain.id}`, { receiving: true });

  const to = `desk@${DOMAIN}`;
  const mails = await Promise.all(
    Array.from({ length: count }, (_, i) =>
      new MailComposer({
        from: 'cara@sender.example',
        to,
        subject: `bench ${i}`,
        text: 'The report is attached.',
        attachments: [{ filename: 'report.bin', content: randomBytes(36 * 1024) }],
      })
        .compile()
        .build(),
    ),
  );
  const nowherePort = await freePort();
  const nowhere = fork('-e', [NOWHERE, String(nowherePort)], { execArgv: [] });
  try {
    await new Promise((resolve) => nowhere.once('message', resolve));
    // One unmeasured round each, so that neither side pays its warm-up in the measure.
    await sendAll(nowherePort, mails.slice(0, 40), to);
    await sendAll(smtpPort, mails.slice(0, 40), to);
    const baseline = await sendAll(nowherePort, mails, to);
    const ours = await sendAll(smtpPort, mails, to);
    const stored = (await api('GET', '/user/inbound?take=1')).total;
    if (stored !== count + 40) throw new Error(`stored ${stored} mails, not ${count + 40}`);
    const kb = Math.round(mails[0].length / 1024);
    process.stdout.write(
      `\nInbound benchmark: ${count} mails of ${kb} KB with one attachment, ${CLIENTS} concurrent clients\n\n` +
        `| measure | Mailroom | smtp-server to nowhere | ratio |\n|---|---|---|---|\n` +
        `| received mails/s | ${ours.toFixed(0)} | ${baseline.toFixed(0)} | ${(ours / baseline).toFixed(3)} |\n`,
    );
  } finally {
    nowhere.kill();
    await mailroom.stop();
    await dns.stop();
    await database.close();
  }
}

if (require.main === module) {
  const { values } = parseArgs({ options: { mails: { type: 'string', default: '400' } } });
  const count = Number(values.mails);
  if (!Number.isInteger(count) || count < 1) throw new Error('--mails takes a whole number ≥ 1');
  runBench(() => inboundBench(count));
}
