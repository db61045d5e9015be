import { TestDnsServer } from '../dns-server';
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
