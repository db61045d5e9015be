import type { OutgoingMail } from '../messages';
import { MailReceipt, SingleTransactionMailer } from './mailer/mailer';
import { OUT_OF_TIME, sendCopies } from './recipient-copies';

/** A transport whose sends finish when the test says, counting how many run at once. */
class HeldMailer extends SingleTransactionMailer {
  inFlight = 0;
  mostInFlight = 0;
  private readonly held: (() => void)[] = [];

  async send(mail: OutgoingMail): Promise<MailReceipt> {
    this.mostInFlight = Math.max(this.mostInFlight, ++this.inFlight);
    await new Promise<void>((resolve) => this.held.push(resolve));
    this.inFlight--;
    if (mail.copyFor!.position % 3 === 2) throw new Error(`421 busy ${mail.copyFor!.position}`);
    return { reply: `250 queued ${mail.copyFor!.position}`, rejected: [] };
  }

  /** Lets the oldest held send finish; false once none is held. */
  release(): boolean {
    const next = this.held.shift();
    next?.();
    return next !== undefined;
  }
}

const copy = (position: number) =>
  ({
    from: 'ada@x.test',
    to: [],
    cc: [],
    bcc: [],
    copyFor: { address: `r${position}@x.test`, position },
  }) as unknown as OutgoingMail;

describe(sendCopies.name, () => {
  it('keeps at most the given number of copies in flight and reports each in the order given', async () => {
    const mailer = new HeldMailer();
    const copies = Array.from({ length: 10 }, (_, position) => copy(position));
    const sent = sendCopies(mailer, copies, 3);
    let settled = false;
    void sent.then(() => (settled = true));
    while (!settled) {
      await new Promise((resolve) => setImmediate(resolve));
      mailer.release();
    }
    const results = await sent;

    expect(mailer.mostInFlight).toBe(3);
    expect(results.map((r) => r.recipients)).toEqual(copies.map((c) => [c.copyFor!.address]));
    expect(results[1]).toEqual({
      recipients: ['r1@x.test'],
      result: { receipt: { reply: '250 queued 1', rejected: [] } },
    });
    expect(results[2]).toEqual({ recipients: ['r2@x.test'], result: { error: new Error('421 busy 2') } });
  });

  it('starts no copy after its deadline: those left are temporary failures, to be retried', async () => {
    const mailer = new HeldMailer();
    let now = 0;
    jest.spyOn(performance, 'now').mockImplementation(() => now);
    const copies = Array.from({ length: 5 }, (_, position) => copy(position));
    const sent = sendCopies(mailer, copies, 2, 1000);
    await new Promise((resolve) => setImmediate(resolve));
    expect(mailer.inFlight).toBe(2);
    now = 1001;
    while (mailer.release()) await new Promise((resolve) => setImmediate(resolve));
    const results = await sent;

    expect(results.map((r) => 'receipt' in r.result)).toEqual([true, true, false, false, false]);
    expect(results.slice(2).map((r) => (r.result as { error: Error }).error.message)).toEqual(
      Array(3).fill(OUT_OF_TIME),
    );
    jest.restoreAllMocks();
  });

  it('sends nothing for no copies', async () => {
    const mailer = new HeldMailer();
    expect(await sendCopies(mailer, [], 3)).toEqual([]);
    expect(mailer.mostInFlight).toBe(0);
  });
});
