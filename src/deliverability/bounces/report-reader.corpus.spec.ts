import { noticeSkip } from '../../../test/support/skip-notice';
import {
  CORPUS,
  corpusAvailable,
  CorpusScore,
  crossValidate,
  FOLD_SEED,
  FOLDS,
  pairReports,
  recallOf,
  scoreCorpus,
} from '../../../test/support/bounce-corpus';
import { DeliveryReport } from './delivery-report';

/*
 * The floors on the shared corpus of real bounces (Sisimai's, beside the repository when there is
 * one; npm run bench:bounces prints the tables): no change to the reader may lower them silently.
 * A clone of the project alone has no such folder, and these tests then skip, saying why.
 */
const available = corpusAvailable();
if (!available) noticeSkip(`Bounce corpus floors SKIPPED: no corpus at ${CORPUS}`);

(available ? describe : describe.skip)('readReports on the shared bounce corpus', () => {
  let score: CorpusScore;
  beforeAll(async () => {
    score = await scoreCorpus();
  }, 60_000);

  it('suppresses no address that a report is not about (zero false hard bounces)', () => {
    const falseHard = score.recipients.filter((recipient) => recipient.falseHard).map((recipient) => recipient.file);
    expect([...falseHard, ...score.extraHard]).toEqual([]);
  });

  // Fails on purpose: The floor the per-server rules reached by fitting these samples; the general rules read 85% here (76 of 89), and bench:bounces holds the per-fold measure (issue 33 item 15).
  it.failing('reads at least 90% of the hard bounces as such', () => {
    const { right, total } = recallOf(score, 'bounce');
    expect(total).toBeGreaterThan(0);
    expect(right / total).toBeGreaterThanOrEqual(0.9);
  });

  it('reads every complaint', () => {
    const { right, total } = recallOf(score, 'complaint');
    expect(total).toBeGreaterThan(0);
    expect(right).toBe(total);
  });

  /*
   * The cross-validation npm run bench:bounces prints: folds of whole server families, a hard
   * bounce counted only when a rule the other folds bear out read it. Targets: 0.9 of the hard
   * bounces on every fold; the general rules read 0.78 to 0.89 today (the bench names each miss),
   * so the floor held here is 0.77, no fold may lose a complaint or suppress a kept address.
   */
  it(`on every fold of ${FOLDS} by server family: no false hard bounce, every complaint, at least 77% of the hard bounces`, () => {
    const folds = crossValidate(score.recipients, FOLDS, FOLD_SEED);
    expect(folds).toHaveLength(FOLDS);
    for (const { hard, hardRead, complaints, falseHard } of folds) {
      expect(falseHard.map((recipient) => recipient.file)).toEqual([]);
      expect(complaints.filter((recipient) => !recipient.right).map((recipient) => recipient.file)).toEqual([]);
      expect(hard.length).toBeGreaterThan(0);
      expect(hardRead.length / hard.length).toBeGreaterThanOrEqual(0.77);
    }
  });

  it('never suppresses the address of a relay that gave up or a delay notice', () => {
    const delays = score.recipients.filter((recipient) => recipient.expected === 'delay');
    expect(delays.length).toBeGreaterThan(0);
    expect(delays.filter((recipient) => recipient.read === 'bounce').map((recipient) => recipient.file)).toEqual([]);
  });
});

describe('pairReports (how the corpus score matches expected recipients to reports)', () => {
  const report = (kind: DeliveryReport['kind'], status?: string): DeliveryReport => ({
    kind,
    ...(status !== undefined && { status }),
    diagnostic: status ?? kind,
  });

  it('pairs by status code when a report lists its recipients in another order, so a hard bounce is scored against its own recipient', () => {
    const bounce = report('bounce', '5.1.1');
    const soft = report('soft', '5.7.1');
    const { paired, unpaired } = pairReports(
      [
        { status: '5.7.1', hard: false, reason: 'filtered' },
        { status: '5.1.1', hard: true, reason: 'userunknown' },
      ],
      [bounce, soft],
    );
    expect(paired).toEqual([soft, bounce]);
    expect(unpaired).toEqual([]);
  });

  it('pairs in order when the codes do not tell, lets a lone report naming no one stand for all, and returns what is left', () => {
    const [first, second, extra] = [report('soft', '5.0.0'), report('soft'), report('bounce', '5.1.1')];
    const expected = [
      { status: '5.7.0', hard: false, reason: 'policyviolation' },
      { status: '5.7.0', hard: false, reason: 'policyviolation' },
    ];
    expect(pairReports(expected, [first, second, extra])).toEqual({ paired: [first, second], unpaired: [extra] });
    expect(pairReports(expected, [second])).toEqual({ paired: [second, second], unpaired: [] });
    expect(pairReports(expected, [])).toEqual({ paired: [undefined, undefined], unpaired: [] });
  });
});
