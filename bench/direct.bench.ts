// The direct section of `npm run bench` (and `--only direct`): direct delivery (SMTP_URL=direct)
// to three loopback sites whose MX servers take 20 ms per message, against raw nodemailer pools
// sending the same messages to the same servers with the same per-site connection limit, in one
// run (docs/performance.md). The sites' MX records come from a real DNS server (dns2) on loopback;
// Mailroom looks them up as it would the Internet's.
import { createTransport } from 'nodemailer';
import { TestDnsServer } from '../test/support/dns-server';
import { drain, rawMimeOf, sendInBatches } from './delivery.bench';
import { BENCH_JWT_SECRET, benchDatabase, median, runConcurrently, SinkProcess, startMailroomProcess } from './support';

const SITES = ['a', 'b', 'c'].map((name, index) => ({
  domain: `site-${name}.bench`,
  mx: `mx.site-${name}.bench`,
  address: `127.0.0.${11 + index}`,
}));
/** DELIVERY_SITE_CONNECTIONS's default for a site that is not a big provider's. */
const PER_SITE = 5;
/** DELIVERY_MESSAGES_PER_CONNECTION's default. */
const PER_CONNECTION = 100;
const DELAY_MS = 20;
const HELO = 'bench.mailroom.test';
/**
 * Deliveries in flight on both sides: the raw client's sends and the worker's WORKER_CONCURRENCY,
 * twice the sites' connections, so that each site has one waiting behind every connection.
 */
const IN_FLIGHT = 2 * PER_SITE * 3;

const message = (i: number) => ({
  subject: `Benchmark message ${i}`,
  html: `<h1>Hello</h1><p>This is message <b>${i}</b> of the direct delivery benchmark.</p>`,
  to: [`user${i}@${SITES[i % SITES.length].domain}`],
  sender: 'bench@example.com',
});

export async function directBench(options: { messages: number }): Promise<{ rows: string[][]; cpu: string[][] }> {
  const n = options.messages;
  const sites = await SinkProcess.start({ hosts: SITES.map((s) => s.address), delayMs: DELAY_MS });
  const dns = new TestDnsServer();
  const dnsServer = await dns.start();
  for (const site of SITES) {
    dns.publishMx(site.domain, { exchange: site.mx, preference: 10 });
    dns.publishAddress(site.mx, site.address);
  }
  const database = await benchDatabase();
  try {
    const rawBefore = process.cpuUsage();
    const raw = median([await rawPools(sites.port, n), await rawPools(sites.port, n), await rawPools(sites.port, n)]);
    const rawUsage = process.cpuUsage(rawBefore);
    const rawCpuMs = (rawUsage.user + rawUsage.system) / 1000 / (3 * n);

    const start = (role: 'api' | 'worker') =>
      startMailroomProcess(database.url, {
        role,
        env: {
          JWT_SECRET: BENCH_JWT_SECRET,
          RATE_LIMIT_PER_MINUTE: '100000000',
          SMTP_URL: 'direct',
          DNS_SERVERS: dnsServer,
          DIRECT_MX_PORT: String(sites.port),
          DELIVERY_HELO_NAME: HELO,
          WORKER_CONCURRENCY: String(IN_FLIGHT),
        },
      });
    const api = await start('api');
    await sendInBatches(api.port, n, message);
    await api.stop();
    const drained = await drain(database, sites, n, () => start('worker'));
    const ratio = drained.rate / raw;
    const msgs = (rate: number) => `${rate.toFixed(0)} msg/s`;
    const [, , postgresCpu, workerCpu, sitesCpu] = drained.cpu;
    return {
      rows: [
        [
          `direct delivery: queued → worker → MX look-up → 3 sites (${DELAY_MS} ms a message, ${PER_SITE} connections each) → sent, ${n} messages`,
          msgs(drained.rate),
          `${msgs(raw)} raw`,
          `${ratio.toFixed(2)}×`,
          '≥ 0.8× raw nodemailer pools',
          ratio >= 0.8 ? 'yes' : '**no**',
        ],
        [`raw: nodemailer, a pool of ${PER_SITE} per site, ${n} messages (median of 3)`, msgs(raw), '', '', '', ''],
      ],
      cpu: [
        ['deliver directly: queued → worker → 3 sites → sent', '—', postgresCpu, workerCpu, sitesCpu, '—'],
        ['raw: nodemailer pools → 3 sites', '—', '—', '—', '—', rawCpuMs.toFixed(2)],
      ],
    };
  } finally {
    await database.close();
    await dns.stop();
    await sites.stop();
  }
}

/** The same MIME messages Mailroom sends, through one nodemailer pool per site with the same limits. */
async function rawPools(port: number, count: number): Promise<number> {
  const pools = SITES.map((site) =>
    createTransport({
      host: site.address,
      port,
      name: HELO,
      secure: false,
      ignoreTLS: true,
      pool: true,
      maxConnections: PER_SITE,
      maxMessages: PER_CONNECTION,
    }),
  );
  const started = performance.now();
  await runConcurrently(count, IN_FLIGHT, async (i) => {
    await pools[i % SITES.length].sendMail(await rawMimeOf(message(i)));
  });
  const seconds = (performance.now() - started) / 1000;
  for (const pool of pools) pool.close();
  return count / seconds;
}
