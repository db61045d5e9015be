/**
 * The DKIM key record (RFC 6376 §3.6.1) of a public key: what the user publishes at
 * `<selector>._domainkey.<domain>`. `publicKey` is the base64 of its DER SubjectPublicKeyInfo.
 */
export function dkimRecord(publicKey: string): string {
  return `v=DKIM1; k=rsa; p=${publicKey}`;
}

/**
 * Far above a real key record (about 410 bytes for RSA-2048, 1,400 for RSA-8192): a longer TXT
 * record at the selector's name is not read.
 */
export const MAX_KEY_RECORD_BYTES = 4096;

// RFC 6376 §3.2: tag names are ALPHA *(ALPHA / DIGIT / "_"); values are printable ASCII but
// ";", with white space (FWS) allowed inside and around.
const TAG_NAME = /^[A-Za-z][A-Za-z0-9_]*$/;
const TAG_VALUE = /^[\x21-\x3a\x3c-\x7e]*(?:[ \t\r\n]+[\x21-\x3a\x3c-\x7e]+)*$/;

/** A tag list (RFC 6376 §3.2) as tag → value, or undefined when it is not one (a duplicate tag included). */
export function parseTagList(text: string): Map<string, string> | undefined {
  const tags = new Map<string, string>();
  const specs = text.split(';');
  // A final ";" is allowed and leaves an empty spec behind it.
  if (specs.length > 1 && specs.at(-1)!.trim() === '') specs.pop();
  for (const spec of specs) {
    const equals = spec.indexOf('=');
    if (equals < 0) return undefined;
    const name = spec.slice(0, equals).trim();
    const value = spec.slice(equals + 1).trim();
    if (!TAG_NAME.test(name) || !TAG_VALUE.test(value) || tags.has(name)) return undefined;
    tags.set(name, value);
  }
  return tags;
}

/**
 * Whether a TXT record, its strings joined, publishes `publicKey` as a DKIM RSA key: `v`, when
 * present, is `DKIM1` and comes first; `k`, when present, is `rsa`; `p`, without the white space
 * a base64 value may be folded with, is the key.
 */
export function publishesKey(record: string, publicKey: string): boolean {
  if (Buffer.byteLength(record) > MAX_KEY_RECORD_BYTES) return false;
  const tags = parseTagList(record);
  if (!tags) return false;
  const version = tags.get('v');
  if (version !== undefined && (version !== 'DKIM1' || [...tags.keys()][0] !== 'v')) return false;
  if ((tags.get('k') ?? 'rsa') !== 'rsa') return false;
  return tags.get('p')?.replace(/[ \t\r\n]/g, '') === publicKey;
}
