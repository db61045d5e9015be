// npm run bench:bounces [-- --lf] [-- --verbose] [-- --folds 5 --seed 33]
// Measures the bounce and complaint reader on the real bounces in ../shared/bounce-corpus (when
// that folder is there; a clone of the project alone has none): recall per kind, a confusion
// table overall and per server family, and the one number that must stay 0, the false hard
// bounces (an address that would be suppressed although the failure is not about it).
// Then k-fold cross-validation by server family (test/support/bounce-corpus.ts: foldsOf): each
// family's samples in one fold, and a hard bounce of the held-out fold counted as read only when a
// rule that read it (an RFC 3463 address code or a wording family of reports/classify.ts) also
// read a hard bounce of the other k-1 folds. The rules are written by hand, so this is how the
// "fitting" is held out: a rule only one family bears shows as a miss on that family's fold.
// Each file is read with CRLF line ends, as a mail server sends it; --lf reads it as stored.
// src/deliverability/bounces/report-reader.corpus.spec.ts asserts the floors on the same reading.
import { parseArgs } from 'node:util';
import {
  CORPUS,
  corpusAvailable,
  crossValidate,
  Fold,
  FOLD_SEED,
  FOLDS,
  KINDS,
  READS,
  recallOf,
  ScoredRecipient,
  scoreCorpus,
} from '../test/support/bounce-corpus';

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      lf: { type: 'boolean', default: false },
      verbose: { type: 'boolean', default: false },
      folds: { type: 'string', default: String(FOLDS) },
      seed: { type: 'string', default: String(FOLD_SEED) },
    },
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
  crossValidation(recipients, Number(values.folds), Number(values.seed));
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

/** The folds table: per held-out fold, hard-bounce recall, complaints, false hard, and how the rest was read. */
function crossValidation(recipients: ScoredRecipient[], k: number, seed: number): void {
  const scores = crossValidate(recipients, k, seed);
  console.log(
    `\n${k}-fold cross-validation by server family (seed ${seed}; targets: hard >= 0.9, complaints 100%, false hard 0):\n`,
  );
  console.log(
    '| fold | families | recipients | hard bounces read | complaints | false hard | soft kept | delay | other | soft/delay/other read otherwise |',
  );
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|---|');
  scores.forEach(({ fold, hard, hardRead, falseHard }, index) => {
    const cell = (kind: string) => rightOf(fold, kind);
    const otherwise = ['soft', 'delay', 'other']
      .flatMap((kind) =>
        fold.recipients
          .filter((recipient) => recipient.expected === kind && !recipient.right)
          .map((recipient) => `${kind} as ${recipient.read}`),
      )
      .join(', ');
    console.log(
      `| ${index + 1} | ${fold.servers.length} | ${fold.recipients.length} | ${hardRead.length}/${hard.length} (${ratio(hardRead.length, hard.length)}) | ` +
        `${cell('complaint')} | ${falseHard.length} | ${cell('soft')} | ${cell('delay')} | ${cell('other')} | ${otherwise || '-'} |`,
    );
  });
  scores.forEach(({ fold }, index) => console.log(`\nfold ${index + 1}: ${fold.servers.join(', ')}`));
  console.log('\nWhat each rule read (hard bounces read right), by fold and server family:\n');
  console.log('| rule | hard bounces | folds | server families |');
  console.log('|---|---:|---:|---|');
  const read = recipients.filter((recipient) => recipient.expected === 'bounce' && recipient.right);
  for (const rule of [...new Set(read.flatMap((recipient) => recipient.rules))].sort()) {
    const bearing = read.filter((recipient) => recipient.rules.includes(rule));
    const servers = [...new Set(bearing.map((recipient) => recipient.server))].sort();
    const folds = scores.filter(({ fold }) => fold.recipients.some((recipient) => bearing.includes(recipient)));
    console.log(`| ${rule} | ${bearing.length} | ${folds.length} | ${servers.join(', ')} |`);
  }
  const misses = scores.flatMap(({ hard, hardRead }, index) =>
    hard
      .filter((recipient) => !hardRead.includes(recipient))
      .map(
        (recipient) =>
          `  fold ${index + 1} ${recipient.file} (${recipient.server}, ${recipient.reason} ${recipient.status}): ` +
          (recipient.right
            ? `read by ${recipient.rules.join(', ')}, borne by no other fold`
            : `read ${recipient.read}: ${diagnostic(recipient)}`),
      ),
  );
  console.log(`\nHard bounces not read on their fold: ${misses.length}`);
  misses.forEach((line) => console.log(line));
}

const rightOf = (fold: Fold, kind: string) => {
  const expected = fold.recipients.filter((recipient) => recipient.expected === kind);
  return expected.length === 0 ? '-' : `${expected.filter((recipient) => recipient.right).length}/${expected.length}`;
};
const ratio = (part: number, whole: number) => (whole === 0 ? '-' : (part / whole).toFixed(2));
const percent = (part: number, whole: number) => (whole === 0 ? '-' : `${((100 * part) / whole).toFixed(1)}%`);
const diagnostic = (recipient: ScoredRecipient) => recipient.report?.diagnostic.slice(0, 160) ?? '';
/** Families as the corpus names them, Sisimai's lettered unknown MTAs (lhost-x1…x6) in one row. */
const groupOf = (recipient: ScoredRecipient) => (/^lhost-x\d$/.test(recipient.family) ? 'lhost-x*' : recipient.family);

void main();
