import { readFileSync } from 'node:fs';
import { freePort } from '../../../src/platform/free-port';
import { ServiceProcess, startServiceProcess, waitUntilAnswering } from '../child-processes';
import { treeCpuMs } from '../cpu-time';
import { TestDnsServer } from '../dns-server';
import { createIsolatedDatabase, dropDatabase } from '../test-app';
import { bearer } from '../tokens';
import { newDomain } from './inbound-app';

export type ProcessApi = (
  userId: string,
  method: string,
  path: string,
  body?: unknown,
) => Promise<{ status: number; body: any }>;

/** JSON calls to a service process started by the suite, as user `userId` (a token signed for it). */
export function processApi(base: () => string): ProcessApi {
  return async (userId, method, path, body) => {
    const response = await fetch(`${base()}${path}`, {
      method,
      headers: { ...bearer(userId), 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as any };
  };
}

/** A domain of `userId` verified through the real DNS server (its DKIM record published) and receiving mail; its name. */
export async function receivingDomain(
  api: ProcessApi,
  dns: TestDnsServer,
  userId: string,
  label: string,
): Promise<string> {
  const domain = (await api(userId, 'POST', '/domains', { name: newDomain(label) })).body;
  const dkim = domain.dnsRecords.find((record: { purpose: string }) => record.purpose === 'dkim');
  dns.publish(dkim.name, dkim.value);
  expect((await api(userId, 'POST', `/domains/${domain.id}/verify`)).body.status).toBe('verified');
  expect((await api(userId, 'PATCH', `/domains/${domain.id}`, { receiving: true })).status).toBe(200);
  return domain.name;
}

/** A service process (ROLE=all) taking inbound mail, on a database and a DNS server of its own. */
export interface InboundProcess {
  readonly dns: TestDnsServer;
  readonly api: ProcessApi;
  /** Its HTTP base URL and its inbound SMTP port, once started. */
  readonly base: () => string;
  readonly smtpPort: () => number;
  /** The process's resident memory now (VmRSS) or at its peak (VmHWM), in MB, from /proc. */
  readonly memoryMb: (field: 'VmRSS' | 'VmHWM') => number;
  /** The CPU time the process and its children have used so far, in ms (10 ms ticks). */
  readonly cpuMs: () => number;
}

/**
 * Starts such a process before the suite's tests (waiting up to `startMs` for /health) and stops
 * it, its DNS server and its database after them. `command` as startServiceProcess takes it.
 */
export function inboundProcess(startMs: number, command?: string[]): InboundProcess {
  const dns = new TestDnsServer();
  let service: ServiceProcess | undefined;
  let databaseUrl: string | undefined;
  let base = '';
  let smtpPort = 0;
  beforeAll(async () => {
    const port = await freePort();
    smtpPort = await freePort();
    base = `http://127.0.0.1:${port}`;
    // ROLE=all runs delivery too: on a database of its own, it takes no other test's jobs.
    databaseUrl = await createIsolatedDatabase(process.env.TEST_DATABASE_URL!);
    service = startServiceProcess(
      {
        ROLE: 'all',
        HOST: '127.0.0.1',
        PORT: String(port),
        INBOUND_SMTP_PORT: String(smtpPort),
        DNS_SERVERS: await dns.start(),
        DATABASE_URL: databaseUrl,
        LOG_LEVEL: 'warn',
      },
      command ? { command } : {},
    );
    await waitUntilAnswering(`${base}/health`, service, startMs);
  }, startMs + 30_000);
  afterAll(async () => {
    await service?.stop();
    await dns.stop();
    if (databaseUrl) await dropDatabase(databaseUrl);
  });
  return {
    dns,
    api: processApi(() => base),
    base: () => base,
    smtpPort: () => smtpPort,
    cpuMs: () => treeCpuMs(service!.child.pid!),
    memoryMb: (field) =>
      Number(
        new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${service!.child.pid}/status`, 'utf8'))![1],
      ) / 1024,
  };
}
