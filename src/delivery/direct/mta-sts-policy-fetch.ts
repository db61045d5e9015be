import { Resolver } from 'node:dns/promises';
import { request, RequestOptions } from 'node:https';
import type { SecureContext } from 'node:tls';

/**
 * The largest policy body read: the maximum RFC 8461 §3.3 suggests (64 kilobytes). A policy of a
 * few MX lines is a few hundred bytes; no site can make a delivery hold more.
 */
export const MAX_POLICY_BYTES = 64 * 1024;

const POLICY_PATH = '/.well-known/mta-sts.txt';

/** Why a policy could not be fetched, said in words the transport's logs and outcomes can carry. */
export class PolicyFetchError extends Error {}

export interface PolicyFetchOptions {
  /** Resolves the policy host's address: DNS_SERVERS, as every look-up of direct delivery. */
  resolver: Resolver;
  /** Trusts the system's CAs plus MTA_STS_CA_FILE's: made once, not parsed again for every fetch. */
  trust: SecureContext;
  timeoutMs: number;
}

/**
 * Fetches `https://mta-sts.<domain>/.well-known/mta-sts.txt` as RFC 8461 §3.2-3.3 ask: the host's
 * address from our resolver (not the system's), a certificate valid for `mta-sts.<domain>` from a
 * trusted CA, status 200 only (no redirect is followed), media type text/plain, at most
 * MAX_POLICY_BYTES, all within `timeoutMs`. Resolves to the body's text; parsing is mailauth's.
 * mailauth's own fetchPolicy cannot be used: it offers no way to trust an extra CA or a deadline
 * for the whole exchange.
 */
export async function fetchPolicyText(domain: string, options: PolicyFetchOptions): Promise<string> {
  const host = `mta-sts.${domain}`;
  const deadline = Date.now() + options.timeoutMs;
  const address = await withDeadline(addressOf(host, options.resolver), deadline, `resolving ${host}`);
  return get(host, address, options.trust, deadline);
}

async function addressOf(host: string, resolver: Resolver): Promise<string> {
  const v4 = await resolver.resolve4(host).catch(absentAsEmpty);
  if (v4.length > 0) return v4[0];
  const v6 = await resolver.resolve6(host).catch(absentAsEmpty);
  if (v6.length > 0) return v6[0];
  throw new PolicyFetchError(`${host} has no address`);
}

function absentAsEmpty(err: NodeJS.ErrnoException): string[] {
  if (err.code === 'ENOTFOUND' || err.code === 'ENODATA') return [];
  throw new PolicyFetchError(`DNS failure (${err.code ?? err.message})`);
}

async function withDeadline<T>(work: Promise<T>, deadline: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new PolicyFetchError(`timed out ${what}`)), Math.max(0, deadline - Date.now()));
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}

function get(host: string, address: string, trust: SecureContext, deadline: number): Promise<string> {
  const url = `https://${host}${POLICY_PATH}`;
  return new Promise((resolve, reject) => {
    const fail = (reason: string) => {
      clearTimeout(timer);
      req.destroy();
      reject(new PolicyFetchError(`${url}: ${reason}`));
    };
    // tls.connect takes a ready secureContext; @types/node leaves it out of https's RequestOptions.
    const options: RequestOptions & { secureContext: SecureContext } = {
      host: address,
      port: 443,
      path: POLICY_PATH,
      method: 'GET',
      servername: host,
      headers: { host, accept: 'text/plain' },
      secureContext: trust,
      rejectUnauthorized: true,
      // A connection of its own: no pooled socket whose certificate was checked for another name.
      agent: false,
    };
    const req = request(options, (res) => {
      const status = res.statusCode ?? 0;
      // RFC 8461 §3.3: 3xx redirects MUST NOT be followed; only a 200 carries a policy.
      if (status !== 200) return fail(`HTTP ${status}${res.headers.location ? ' (redirect not followed)' : ''}`);
      const mediaType = (res.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
      if (mediaType !== 'text/plain') return fail(`media type '${mediaType}', not text/plain`);
      if (Number(res.headers['content-length'] ?? 0) > MAX_POLICY_BYTES)
        return fail(`body over ${MAX_POLICY_BYTES} bytes`);
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > MAX_POLICY_BYTES) return fail(`body over ${MAX_POLICY_BYTES} bytes`);
        chunks.push(chunk);
      });
      res.on('end', () => {
        clearTimeout(timer);
        if (size <= MAX_POLICY_BYTES) resolve(Buffer.concat(chunks).toString('utf8'));
      });
      res.on('error', (err) => fail(err.message));
    });
    const timer = setTimeout(() => fail('timed out'), Math.max(0, deadline - Date.now()));
    req.on('error', (err) => fail(err.message));
    req.end();
  });
}
