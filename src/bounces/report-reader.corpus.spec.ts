import { noticeSkip } from '../../test/support/skip-notice';
import { CORPUS, corpusAvailable, CorpusScore, recallOf, scoreCorpus } from '../../test/support/bounce-corpus';

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

  it('reads at least 90% of the hard bounces as such', () => {
    const { right, total } = recallOf(score, 'bounce');
    expect(total).toBeGreaterThan(0);
    expect(right / total).toBeGreaterThanOrEqual(0.9);
  });

  it('reads every complaint', () => {
    const { right, total } = recallOf(score, 'complaint');
    expect(total).toBeGreaterThan(0);
    expect(right).toBe(total);
  });

  it('never suppresses the address of a relay that gave up or a delay notice', () => {
    const delays = score.recipients.filter((recipient) => recipient.expected === 'delay');
    expect(delays.length).toBeGreaterThan(0);
    expect(delays.filter((recipient) => recipient.read === 'bounce').map((recipient) => recipient.file)).toEqual([]);
  });
});
