// npm run bench:bounces [-- --lf] [-- --verbose]
// Measures the bounce and complaint reader on the real bounces in ../shared/bounce-corpus (when
// that folder is there; a clone of the project alone has none, and this is not part of npm test):
// recall per kind, a confusion table, and the one number that must stay 0, the false hard
// bounces (an address that would be suppressed although the failure is not about it).
// Each file is read with CRLF line ends, as a mail server sends it; --lf reads it as stored.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { ReportKind } from '../src/bounces/delivery-report';
import { readReports } from '../src/bounces/report-reader';

const CORPUS = join(__dirname, '..', '..', 'shared', 'bounce-corpus');
const KINDS: ReportKind[] = ['bounce', 'soft', 'delay', 'complaint', 'other'];
const COLUMNS: (ReportKind | 'missing')[] = [...KINDS, 'unrecognized', 'missing'];

interface Sample {
  file: string;
  kind: ReportKind;
  recipients: { hard: boolean; status: string; reason: string }[];
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { lf: { type: 'boolean', default: false }, verbose: { type: 'boolean', default: false } },
  });
  if (!existsSync(join(CORPUS, 'expected.json'))) {
    console.log(`No bounce corpus at ${CORPUS}: nothing to measure.`);
    return;
  }
  const samples = (JSON.parse(readFileSync(join(CORPUS, 'expected.json'), 'utf8')) as { samples: Sample[] }).samples;
  const confusion = new Map(KINDS.map((kind) => [kind, new Map(COLUMNS.map((column) => [column, 0]))]));
  const falseHard: string[] = [];
  const misses: string[] = [];
  for (const sample of samples) {
    const stored = readFileSync(join(CORPUS, 'eml', sample.file));
    const raw = values.lf ? stored : Buffer.from(stored.toString('latin1').replace(/\r?\n/g, '\r\n'), 'latin1');
    const reports = await readReports(raw);
    // Expected recipients and reports are paired in order; a report naming none stands for all.
    sample.recipients.forEach((expected, index) => {
      const report =
        reports[index] ?? (reports.length === 1 && reports[0].recipient === undefined ? reports[0] : undefined);
      const got = report?.kind ?? 'missing';
      const row = confusion.get(sample.kind)!;
      row.set(got, row.get(got)! + 1);
      if (got !== sample.kind)
        misses.push(
          `${sample.file}: expected ${sample.kind} (${expected.reason} ${expected.status}), read ${got}: ${report?.status ?? ''} ${report?.diagnostic.slice(0, 160) ?? ''}`,
        );
      if (got === 'bounce' && (sample.kind !== 'bounce' || !expected.hard))
        falseHard.push(`${sample.file} (${expected.reason} ${expected.status}): ${report?.diagnostic.slice(0, 160)}`);
    });
    // More `bounce` reports than expected recipients would suppress addresses nobody bounced.
    const extra = reports.slice(sample.recipients.length).filter((report) => report.kind === 'bounce');
    extra.forEach((report) =>
      falseHard.push(`${sample.file}: extra report for ${report.recipient}: ${report.diagnostic.slice(0, 160)}`),
    );
  }

  const recipients = samples.reduce((sum, sample) => sum + sample.recipients.length, 0);
  console.log(
    `Bounce corpus: ${samples.length} files, ${recipients} recipients (${values.lf ? 'LF' : 'CRLF'} line ends)\n`,
  );
  console.log('| expected \\ read | ' + COLUMNS.join(' | ') + ' | recall |');
  console.log('|---|' + COLUMNS.map(() => '---:|').join('') + '---:|');
  for (const kind of KINDS) {
    const row = confusion.get(kind)!;
    const total = [...row.values()].reduce((sum, count) => sum + count, 0);
    const recall = total === 0 ? '-' : `${row.get(kind)}/${total} (${((100 * row.get(kind)!) / total).toFixed(1)}%)`;
    console.log(`| ${kind} | ` + COLUMNS.map((column) => row.get(column)).join(' | ') + ` | ${recall} |`);
  }
  const gaveUp = confusion.get('delay')!.get('soft')!;
  console.log(
    `\nExpected delay, read soft: ${gaveUp} (the corpus files a server giving up after retries under delay; the reader reads that Action: failed as the permanent failure SPEC §9 bounces, address kept)`,
  );
  console.log(`\nFalse hard bounces: ${falseHard.length}`);
  falseHard.forEach((line) => console.log(`  ${line}`));
  if (values.verbose) {
    console.log('\nMisread:');
    misses.forEach((line) => console.log(`  ${line}`));
  }
}

void main();
