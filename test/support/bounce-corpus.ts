import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DeliveryReport, ReportKind } from '../../src/bounces/delivery-report';
import { readReports } from '../../src/bounces/report-reader';

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
 * What counts as read right (the corpus README's table and SPEC §9): each kind as itself, and a
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

interface Sample {
  file: string;
  kind: ReportKind;
  recipients: { hard: boolean; status: string; reason: string }[];
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
    const reports = await readReports(raw);
    // Expected recipients and reports are paired in order; a report naming none stands for all.
    sample.recipients.forEach((expected, index) => {
      const report =
        reports[index] ?? (reports.length === 1 && reports[0].recipient === undefined ? reports[0] : undefined);
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
      });
    });
    reports
      .slice(sample.recipients.length)
      .filter((report) => report.kind === 'bounce')
      .forEach((report) => extraHard.push(`${sample.file}: extra report for ${report.recipient}`));
  }
  return { recipients, extraHard };
}

/** Of the recipients expected as `kind`, how many were read right. */
export function recallOf(score: CorpusScore, kind: ReportKind): { right: number; total: number } {
  const expected = score.recipients.filter((recipient) => recipient.expected === kind);
  return { right: expected.filter((recipient) => recipient.right).length, total: expected.length };
}
