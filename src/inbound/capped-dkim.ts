import type { Readable, Writable } from 'node:stream';
import type { DKIMVerifyOptions, DKIMVerifyResult } from 'mailauth';

/**
 * DKIM-Signature fields verified per mail; the ones after them are not verified (no result). Real
 * mail carries one to three (the author's domain, its sending service, a mailing list);
 * OpenDKIM verifies 3 by default (MaximumSignaturesToVerify) and KumoMTA 10. Each verified
 * signature may cost a DNS query, an RSA verification and a pass over the body (its own `l=` makes
 * its own body hash), so a mail of 550 signatures took a worker 20 s (issue 33).
 */
export const MAX_DKIM_SIGNATURES = 5;

/**
 * Bytes handed to the verifier at once. mailauth's body canonicalizer rescans a line not yet ended
 * from its start at every chunk, so a line of L bytes read in chunks of C costs L²/C: chunks as
 * large as the longest line taken (InboundMailLimits.lineBytes) keep the work linear.
 */
export const DKIM_CHUNK_BYTES = 1024 * 1024;

interface HeaderLine {
  key: string;
}
interface ParsedHeaders {
  parsed: HeaderLine[];
}
type DkimVerifierClass = new (options: DKIMVerifyOptions) => Writable & {
  headers: ParsedHeaders | false;
  headerFrom: string[];
  envelopeFrom: string | false;
  results: DKIMVerifyResult['results'];
  messageHeaders(headers: ParsedHeaders): Promise<void>;
};

// mailauth's own verifier (4.13 has no option bounding the signatures it checks): the class
// dkimVerify runs, and the helper that feeds it. Untyped internals; the casts name what is used.
// eslint-disable-next-line @typescript-eslint/no-require-imports -- untyped CommonJS module
const { DkimVerifier } = require('mailauth/lib/dkim/dkim-verifier') as { DkimVerifier: DkimVerifierClass };
// eslint-disable-next-line @typescript-eslint/no-require-imports -- untyped CommonJS module
const { writeToStream } = require('mailauth/lib/tools') as {
  writeToStream: (stream: Writable, input: Readable) => Promise<void>;
};

/** mailauth's DkimVerifier, shown only the first MAX_DKIM_SIGNATURES DKIM-Signature fields. */
class CappedDkimVerifier extends DkimVerifier {
  override async messageHeaders(headers: ParsedHeaders): Promise<void> {
    let signatures = 0;
    const parsed = headers.parsed.filter((h) => h.key !== 'dkim-signature' || ++signatures <= MAX_DKIM_SIGNATURES);
    await super.messageHeaders({ ...headers, parsed });
    // The signed header fields are looked up in the whole header block (a signature may cover another).
    this.headers = headers;
  }
}

/** dkimVerify's answer for a mail (read in chunks of DKIM_CHUNK_BYTES), verifying its first MAX_DKIM_SIGNATURES signatures. */
export async function verifyDkim(
  mail: Readable,
  options: DKIMVerifyOptions,
): Promise<Pick<DKIMVerifyResult, 'headerFrom' | 'results'>> {
  const verifier = new CappedDkimVerifier(options);
  await writeToStream(verifier, mail);
  return { headerFrom: verifier.headerFrom, results: verifier.results };
}
