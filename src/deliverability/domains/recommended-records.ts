import type { DnsRecord } from './dns-records';
import type { MissingDnsRecordResponse } from './dto/domain.dto';
import { mergedSpf, namesMechanism, spfRecords } from './spf-record';
import type { TxtAnswer } from './txt-lookup';

/**
 * What to change about the SPF record, given what DNS holds at its name; undefined when its one
 * SPF record names each of our mechanisms already (the relay, or this server's addresses under
 * direct delivery). An SPF record of the user's own (another service's) is merged with ours rather
 * than joined by a second one, which would make SPF fail for both.
 */
export function spfAdvice(
  spf: DnsRecord,
  mechanisms: readonly string[],
  answer: TxtAnswer,
): MissingDnsRecordResponse | undefined {
  if ('failure' in answer) return { ...spf, reason: answer.failure };
  const found = spfRecords(answer.records);
  if (found.length === 0) return { ...spf, reason: `no SPF record at ${spf.name}` };
  const missing = (record: string) => mechanisms.filter((mechanism) => !namesMechanism(record, mechanism));
  if (found.length === 1 && missing(found[0]).length === 0) return undefined;
  const value = mergedSpf(found, mechanisms);
  if (found.length === 1) {
    const absent = missing(found[0]).join(' ');
    return {
      ...spf,
      value,
      reason: `the SPF record at ${spf.name} does not name ${absent}; a name may have only one SPF record (RFC 7208 §3.2), so replace it with this value, which is it with ${absent} added`,
    };
  }
  // What no record names yet, which the merged value adds.
  const added = mechanisms.filter((mechanism) => found.every((record) => !namesMechanism(record, mechanism)));
  return {
    ...spf,
    value,
    reason: `${found.length} SPF records at ${spf.name}, which makes SPF fail for all mail (RFC 7208 §3.2); replace them with this one value, which merges them${added.length === 0 ? '' : ` and adds ${added.join(' ')}`}`,
  };
}

/** What to change about the DMARC record; undefined when there is one (its policy is the user's to choose). */
export function dmarcAdvice(dmarc: DnsRecord, answer: TxtAnswer): MissingDnsRecordResponse | undefined {
  if ('failure' in answer) return { ...dmarc, reason: answer.failure };
  const found = answer.records.filter((record) => /^v=DMARC1\s*(;|$)/.test(record));
  if (found.length === 0) return { ...dmarc, reason: `no DMARC record at ${dmarc.name}` };
  // RFC 7489 §6.6.3: more than one record, and receivers apply no policy at all.
  if (found.length > 1)
    return {
      ...dmarc,
      reason: `${found.length} DMARC records at ${dmarc.name}, so receivers apply none (RFC 7489 §6.6.3); keep one`,
    };
  return undefined;
}
