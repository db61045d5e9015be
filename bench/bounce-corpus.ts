// npm run bench:bounces [-- --lf] [-- --verbose]
// Measures the bounce and complaint reader on the real bounces in ../shared/bounce-corpus (when
// that folder is there; a clone of the project alone has none): recall per kind, a confusion
// table overall and per server family, and the one number that must stay 0, the false hard
// bounces (an address that would be suppressed although the failure is not about it).
// Each file is read with CRLF line ends, as a mail server sends it; --lf reads it as stored.
// src/bounces/report-reader.corpus.spec.ts asserts the floors on the same reading.
import { parseArgs } from 'node:util';
import {
  CORPUS,
  corpusAvailable,
  KINDS,
  READS,
  recallOf,
  ScoredRecipient,
  scoreCorpus,
} from '../test/support/bounce-corpus';

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { lf: { type: 'boolean', default: false }, verbose: { type: 'boolean', default: false } },
  });
  if (!corpusAvailable()) {
    console.log(`No bounce corpus at ${CORPUS}: nothing to measure.`);
    return;
  }
  const score = await scoreCorpus({ lf: values.lf });
  const { recipients } = score;
  const files = new Set(recipients.map((recipient) => recipient.file)).size;
  console.log(
    `Bounce corpus: ${files} files, ${recipients.length} recipients (${values.lf ? 'LF' : 'CRLF'} line ends)\n`,
  );
  console.log('| expected \\ read | ' + READS.join(' | ') + ' | read right |');
  console.log('|---|' + READS.map(() => '---:|').join('') + '---:|');
  for (const kind of KINDS) {
    const row = recipients.filter((recipient) => recipient.expected === kind);
    const { right, total } = recallOf(score, kind);
    const cells = READS.map((read) => row.filter((recipient) => recipient.read === read).length);
    console.log(`| ${kind} | ${cells.join(' | ')} | ${right}/${total} (${percent(right, total)}) |`);
  }
  console.log(
    '\n`gave up`: a relay that stopped retrying (soft, with the give-up noted): the message is bounced, the address kept;' +
      ' right for the corpus kinds `delay` (its "expired") and `soft`.',
  );

  console.log('\nBy origin (lhost: the MTA that wrote the bounce; rhost: the provider that refused):\n');
  familyTable(recipients, (recipient) => recipient.family.split('-')[0]);
  console.log('\nPer server family:\n');
  familyTable(recipients, groupOf);
  const missed = [...new Set(recipients.filter((recipient) => !recipient.right).map(groupOf))];
  console.log(`\nFamilies with a recipient read wrong: ${missed.join(', ') || 'none'}`);

  const falseHard = [
    ...recipients
      .filter((recipient) => recipient.falseHard)
      .map((recipient) => `${recipient.file} (${recipient.reason} ${recipient.status}): ${diagnostic(recipient)}`),
    ...score.extraHard,
  ];
  console.log(`\nFalse hard bounces: ${falseHard.length}`);
  falseHard.forEach((line) => console.log(`  ${line}`));
  if (values.verbose) {
    console.log('\nMisread:');
    recipients
      .filter((recipient) => !recipient.right)
      .forEach((recipient) =>
        console.log(
          `  ${recipient.file}: expected ${recipient.expected} (${recipient.reason} ${recipient.status}), read ${recipient.read}: ${recipient.report?.status ?? ''} ${diagnostic(recipient)}`,
        ),
      );
  }
}

/** Read right per family: all recipients, the hard bounces, the delays and give-ups; false hard must stay 0. */
function familyTable(recipients: ScoredRecipient[], familyOf: (recipient: ScoredRecipient) => string): void {
  console.log('| family | recipients | read right | bounce | delay / gave up | false hard |');
  console.log('|---|---:|---:|---:|---:|---:|');
  for (const family of [...new Set(recipients.map(familyOf))].sort()) {
    const group = recipients.filter((recipient) => familyOf(recipient) === family);
    const count = (test: (recipient: ScoredRecipient) => boolean) => group.filter(test).length;
    const of = (kind: string) => {
      const expected = count((recipient) => recipient.expected === kind);
      return expected === 0
        ? '-'
        : `${count((recipient) => recipient.expected === kind && recipient.right)}/${expected}`;
    };
    const right = count((recipient) => recipient.right);
    const falseHard = count((recipient) => recipient.falseHard);
    console.log(`| ${family} | ${group.length} | ${right} | ${of('bounce')} | ${of('delay')} | ${falseHard} |`);
  }
}

const percent = (part: number, whole: number) => (whole === 0 ? '-' : `${((100 * part) / whole).toFixed(1)}%`);
const diagnostic = (recipient: ScoredRecipient) => recipient.report?.diagnostic.slice(0, 160) ?? '';
/** Families as the corpus names them, Sisimai's lettered unknown MTAs (lhost-x1…x6) in one row. */
const groupOf = (recipient: ScoredRecipient) => (/^lhost-x\d$/.test(recipient.family) ? 'lhost-x*' : recipient.family);

void main();
