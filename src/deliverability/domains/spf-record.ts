/**
 * SPF records at a name, read as RFC 7208 §4.5 reads them: a record is a TXT string that starts
 * with `v=spf1` followed by a space or nothing; its terms are separated by spaces (§4.6.1).
 */
export function spfRecords(txt: string[]): string[] {
  return txt.filter((record) => /^v=spf1( |$)/i.test(record));
}

/** Whether a record's terms include the mechanism (`+` being the default qualifier, names case-insensitive). */
export function namesMechanism(record: string, mechanism: string): boolean {
  return termsOf(record).some((term) => term.replace(/^\+/, '').toLowerCase() === mechanism.toLowerCase());
}

/**
 * One SPF record holding every term of `records` and `mechanisms`, which go before the first
 * `all` or modifier (`redirect=`, `exp=`), since terms after `all` are never reached (RFC 7208
 * §5.1). A domain may publish only one SPF record (more is a permanent error, §4.5), so a user who
 * already sends through another service must publish this merged one instead of a second one.
 */
export function mergedSpf(records: string[], mechanisms: readonly string[]): string {
  const ours = new Set(mechanisms.map((mechanism) => mechanism.toLowerCase()));
  const terms = [...new Set(records.flatMap(termsOf))].filter(
    (term) => !ours.has(term.replace(/^\+/, '').toLowerCase()),
  );
  const isTail = (term: string) => /^[+\-~?]?all$/i.test(term) || term.includes('=');
  const tail = terms.filter(isTail);
  // Of several records' `all`, the first; any later one could never be reached.
  const firstAll = tail.find((term) => !term.includes('='));
  return [
    'v=spf1',
    ...terms.filter((term) => !isTail(term)),
    ...mechanisms,
    ...tail.filter((term) => term.includes('=') || term === firstAll),
  ].join(' ');
}

const termsOf = (record: string): string[] => record.split(' ').slice(1).filter(Boolean);
