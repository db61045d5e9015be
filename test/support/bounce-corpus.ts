import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DeliveryReport, ReportKind } from '../../src/deliverability/bounces/delivery-report';
import { readReports } from '../../src/deliverability/bounces/report-reader';
import { addressWordingsIn } from '../../src/deliverability/bounces/reports/classify';
import { splitAtQuotedOriginal } from '../../src/deliverability/bounces/reports/quoted-original';
import { parseReportMail } from '../../src/deliverability/bounces/reports/report-mail';
import { parseStatus } from '../../src/deliverability/bounces/reports/status-code';

/**
 * Reads the shared corpus of real bounces (../shared/bounce-corpus, beside the repository: Sisimai's
 * emails with their expected kinds) through the report reader and scores it. One home for
 * `npm run bench:bounces` (the tables) and the unit spec that asserts the floors. A clone of the
 * project alone has no such folder: `corpusAvailable()` says so and callers skip.
 */
export const CORPUS = join(__dirname, '..', '..', '..', 'shared', 'bounce-corpus');

export const KINDS: ReportKind[] = ['bounce', 'soft', 'delay', 'complaint', 'other'];
/** What a recipient was read as: a kind, `gave up` (a soft failure that is a relay giving up), or nothing. */
export type Read = ReportKind | 'gave up' | 'missing';
export const READS: Read[] = ['bounce', 'soft', 'gave up', 'delay', 'complaint', 'other', 'unrecognized', 'missing'];

/*
 * What counts as read right (the corpus README's table and docs/delivery-and-deliverability.md): each kind as itself, and a
 * relay's give-up (the corpus files those under `delay`, Sisimai's "expired" and the like) read
 * as `gave up`, which bounces the message and keeps the address; a `soft` failure read as a
 * give-up is acted on the same way.
 */
const RIGHT: Record<ReportKind, Read[]> = {
  bounce: ['bounce'],
  soft: ['soft', 'gave up'],
  delay: ['delay', 'gave up'],
  complaint: ['complaint'],
  other: ['other'],
  unrecognized: ['unrecognized'],
};

/** One recipient the corpus expects a report about (it gives no address, only what the report should say). */
export interface ExpectedRecipient {
  hard: boolean;
  status: string;
  reason: string;
}

interface Sample {
  file: string;
  kind: ReportKind;
  recipients: ExpectedRecipient[];
}

export interface ScoredRecipient {
  file: string;
  /** lhost-<mta>, rhost-<provider>, rfc3464, arf, rfc3834: the corpus's own grouping by server. */
  family: string;
  expected: ReportKind;
  read: Read;
  right: boolean;
  /** Suppressed although the report is not about the address (expected kind not `bounce`, or not hard). */
  falseHard: boolean;
  reason: string;
  status: string;
  report?: DeliveryReport;
  /** The server family the sample comes from (serverFamilyOf): the unit the folds keep together. */
  server: string;
  /**
   * For a recipient read as `bounce`: the address rules its report shows (an RFC 3463 address
   * code, `X.1.1`…, and the wording families of classify.ts in its diagnostic or the report's own
   * text), so that a fold can tell whether a rule is borne out elsewhere.
   */
  rules: string[];
}

export interface CorpusScore {
  recipients: ScoredRecipient[];
  /** Extra `bounce` reports beyond the expected recipients: addresses nobody bounced. */
  extraHard: string[];
}

export const corpusAvailable = (): boolean => existsSync(join(CORPUS, 'expected.json'));

export const familyOf = (file: string): string => file.replace(/-\d+\.eml$/, '');

export const readOf = (report: DeliveryReport | undefined): Read =>
  report === undefined ? 'missing' : report.kind === 'soft' && report.gaveUp ? 'gave up' : report.kind;

/** Reads every sample, with CRLF line ends as a mail server sends them unless `lf` asks for the stored LF. */
export async function scoreCorpus(options: { lf?: boolean } = {}): Promise<CorpusScore> {
  const samples = (JSON.parse(readFileSync(join(CORPUS, 'expected.json'), 'utf8')) as { samples: Sample[] }).samples;
  const recipients: ScoredRecipient[] = [];
  const extraHard: string[] = [];
  for (const sample of samples) {
    const stored = readFileSync(join(CORPUS, 'eml', sample.file));
    const raw = options.lf ? stored : Buffer.from(stored.toString('latin1').replace(/\r?\n/g, '\r\n'), 'latin1');
    const { paired, unpaired } = pairReports(sample.recipients, await readReports(raw));
    const mail = await parseReportMail(raw);
    const server = serverFamilyOf(sample.file, mail.from);
    const ownText = splitAtQuotedOriginal(mail.text).own;
    sample.recipients.forEach((expected, index) => {
      const report = paired[index];
      const read = readOf(report);
      recipients.push({
        file: sample.file,
        family: familyOf(sample.file),
        expected: sample.kind,
        read,
        right: RIGHT[sample.kind].includes(read),
        falseHard: read === 'bounce' && (sample.kind !== 'bounce' || !expected.hard),
        reason: expected.reason,
        status: expected.status,
        report,
        server,
        rules: read === 'bounce' && report !== undefined ? rulesOf(report, ownText) : [],
      });
    });
    unpaired
      .filter((report) => report.kind === 'bounce')
      .forEach((report) => extraHard.push(`${sample.file}: extra report for ${report.recipient}`));
  }
  return { recipients, extraHard };
}

/**
 * Pairs each expected recipient with a report. The corpus names no addresses, so a report whose
 * status code is the one expected is taken first (a report may list its recipients in another
 * order than the corpus, and a hard bounce must be scored against the recipient it is about),
 * else the next report in order; a lone report naming no one stands for all. `unpaired` holds
 * the reports left over.
 */
export function pairReports(
  expected: ExpectedRecipient[],
  reports: DeliveryReport[],
): { paired: (DeliveryReport | undefined)[]; unpaired: DeliveryReport[] } {
  const left = [...reports];
  const take = (index: number) => (index < 0 ? undefined : left.splice(index, 1)[0]);
  // Code matches first, for all recipients, so that an earlier recipient without one cannot take a later one's.
  const byCode = expected.map(({ status }) =>
    status === '' ? undefined : take(left.findIndex((r) => r.status === status)),
  );
  const paired = byCode.map((report) => report ?? take(left.length > 0 ? 0 : -1));
  const standsForAll = reports.length === 1 && reports[0].recipient === undefined ? reports[0] : undefined;
  return { paired: paired.map((report) => report ?? standsForAll), unpaired: left };
}

/** Of the recipients expected as `kind`, how many were read right. */
export function recallOf(score: CorpusScore, kind: ReportKind): { right: number; total: number } {
  const expected = score.recipients.filter((recipient) => recipient.expected === kind);
  return { right: expected.filter((recipient) => recipient.right).length, total: expected.length };
}

/*
 * Families of mail servers, for cross-validation folds that keep a family's samples together: the
 * corpus's lhost-/rhost- names with one provider's several names joined (its own relays and the
 * servers it runs: Gmail and Google Workspace, Outlook and Office 365…), Sisimai's unnamed MTAs
 * (lhost-x1…x6) as one, and the standard-format samples (rfc3464, arf, rfc3834), which many
 * servers write, by the domain that sent the report.
 */
const PROVIDERS: [RegExp, string][] = [
  [/^(?:gmail|google\w*|gsuite)$|(?:^|\.)google(?:mail)?\.com$/, 'google'],
  [/^(?:exchange\d+|office365|outlook|microsoft)$|(?:^|\.)(?:hotmail|outlook|live|msn)\.\w+$/, 'microsoft'],
  [/^(?:yahoo\w*|aol)$|(?:^|\.)(?:yahoo|aol|ymail)\.[\w.]+$/, 'yahoo'],
  [/^(?:kddi|ezweb)$|(?:^|\.)(?:ezweb\.ne\.jp|au\.com)$/, 'kddi'],
  [/^(?:amazon\w*|receivingses)$|(?:^|\.)amazonses\.com$/, 'amazon'],
  [/^v?\d?sendmail$/, 'sendmail'],
  [/^(?:notes|domino)$/, 'domino'],
  [/^x\d$/, 'unnamed-mta'],
];

export function serverFamilyOf(file: string, from: string | undefined): string {
  const family = familyOf(file);
  const name = /^[lr]host-/.test(family) ? family.slice('lhost-'.length) : (from?.split('@')[1] ?? family);
  const provider = PROVIDERS.find(([pattern]) => pattern.test(name));
  if (provider) return provider[1];
  // A standard report from another domain: its last two labels (a server family's hosts share them).
  return /^[lr]host-/.test(family) ? name : name.split('.').slice(-2).join('.');
}

/** The address rules a `bounce` report shows: its RFC 3463 address code and the wording families. */
function rulesOf(report: DeliveryReport, ownText: string): string[] {
  const code = parseStatus(report.status);
  const codes = code && code.subject === 1 ? [`X.1.${code.detail}`] : code?.subject === 4 ? ['X.4.4'] : [];
  const words = new Set([...addressWordingsIn(report.diagnostic), ...addressWordingsIn(ownText)]);
  return [...codes, ...words];
}

export interface Fold {
  servers: string[];
  recipients: ScoredRecipient[];
}

/**
 * k folds of whole server families: the families shuffled with a fixed seed, then dealt, the
 * largest first, each to the fold with the fewest hard bounces so far (then the fewest
 * recipients), so that every fold has hard bounces to score and no family is split.
 */
export function foldsOf(recipients: ScoredRecipient[], k: number, seed: number): Fold[] {
  const random = mulberry32(seed);
  const families = [...new Set(recipients.map((recipient) => recipient.server))].sort();
  for (let index = families.length - 1; index > 0; index--) {
    const other = Math.floor(random() * (index + 1));
    [families[index], families[other]] = [families[other], families[index]];
  }
  const of = (family: string) => recipients.filter((recipient) => recipient.server === family);
  const hard = (group: ScoredRecipient[]) => group.filter((recipient) => recipient.expected === 'bounce').length;
  const bySize = families
    .map((family, order) => ({ family, order, group: of(family) }))
    .sort((a, b) => hard(b.group) - hard(a.group) || b.group.length - a.group.length || a.order - b.order);
  const folds: Fold[] = Array.from({ length: k }, () => ({ servers: [], recipients: [] }));
  for (const { family, group } of bySize) {
    const fold = folds.reduce((best, candidate) =>
      hard(candidate.recipients) < hard(best.recipients) ||
      (hard(candidate.recipients) === hard(best.recipients) && candidate.recipients.length < best.recipients.length)
        ? candidate
        : best,
    );
    fold.servers.push(family);
    fold.recipients.push(...group);
  }
  return folds;
}

/**
 * The address rules borne out by the other folds: each rule that decided a hard bounce read
 * right there. Scoring a fold, a hard bounce counts as read only when one of its rules is among
 * these, so a rule that only one family's samples bear shows as a miss on that family's fold.
 * The RFC 3463 address codes (X.1.1, X.1.2, X.1.3, X.1.6, X.1.10) are the standard's, not learned
 * from any sample: always borne.
 */
export function rulesBorneOut(folds: Fold[], heldOut: number): Set<string> {
  return new Set([
    ...STANDARD_CODES,
    ...folds
      .filter((_, index) => index !== heldOut)
      .flatMap((fold) => fold.recipients)
      .filter((recipient) => recipient.expected === 'bounce' && recipient.right)
      .flatMap((recipient) => recipient.rules),
  ]);
}

const STANDARD_CODES = ['X.1.1', 'X.1.2', 'X.1.3', 'X.1.6', 'X.1.10'];

/** What one held-out fold scores. */
export interface FoldScore {
  fold: Fold;
  /** The fold's hard bounces, and those read as such by a rule the other folds bear out. */
  hard: ScoredRecipient[];
  hardRead: ScoredRecipient[];
  complaints: ScoredRecipient[];
  falseHard: ScoredRecipient[];
}

/** Each fold scored as held out: rules borne out by the other k-1 folds only (rulesBorneOut). */
export function crossValidate(recipients: ScoredRecipient[], k: number, seed: number): FoldScore[] {
  const folds = foldsOf(recipients, k, seed);
  return folds.map((fold, index) => {
    const borne = rulesBorneOut(folds, index);
    const hard = fold.recipients.filter((recipient) => recipient.expected === 'bounce');
    return {
      fold,
      hard,
      hardRead: hard.filter((recipient) => recipient.right && recipient.rules.some((rule) => borne.has(rule))),
      complaints: fold.recipients.filter((recipient) => recipient.expected === 'complaint'),
      falseHard: fold.recipients.filter((recipient) => recipient.falseHard),
    };
  });
}

/** The folds and seed the bench prints and the corpus spec holds. */
export const FOLDS = 5;
export const FOLD_SEED = 33;

/** A small seeded generator (mulberry32), so that the folds are the same on every run. */
function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
