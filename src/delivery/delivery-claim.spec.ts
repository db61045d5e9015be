import type { EntityManager } from 'typeorm';
import { automockProvider } from '../../test/support/automock';
import { Database } from '../platform/database/database';
import { SealedSigningKey, SigningKeys } from '../deliverability';
import { MessageLifecycle } from '../messages';
import { Metrics } from '../platform/metrics/metrics';
import { DeliveryJob, DeliveryQueue } from '../platform/queue/delivery-queue';
import { QueueJob } from '../platform/queue/job-queue';
import { SuppressionList } from '../deliverability';
import { DeliveryClaim } from './delivery-claim';
import { CLAIMED_COLUMNS, DeliverableMessage, DeliveryRepository } from './delivery.repository';
import { recipientPositions } from './recipient-positions';

const manager = {} as EntityManager;
const KEY: SealedSigningKey = {
  domainId: 'd1',
  domainName: 'example.com',
  keySelector: 's1',
  sealed: Buffer.from('k'),
};

const job = (id: string, messageId: string, extra: Partial<DeliveryJob> = {}): QueueJob<DeliveryJob> => ({
  id,
  data: { messageId, attempt: 1, ...extra },
});

function stored(id: string, recipients: string[], attempt = 1): DeliverableMessage {
  const message = {
    id,
    userId: 'user-1',
    attempt,
    sender: 'Ada <ada@example.com>',
    recipients,
    cc: null,
    bcc: null,
    replyTo: null,
    subject: 'Hello',
    html: '<p>Hi</p>',
    text: null,
    headers: null,
    priority: 'normal' as const,
    bulkSendingId: null,
    sentAt: new Date('2026-11-26T12:00:00Z'),
    attachments: [],
    mime: null,
  };
  return { ...message, positions: recipientPositions(message) };
}

describe(DeliveryClaim.name, () => {
  let sut: DeliveryClaim;
  let lifecycle: jest.Mocked<MessageLifecycle>;
  let deliveries: jest.Mocked<DeliveryRepository>;
  let queue: jest.Mocked<DeliveryQueue>;
  let suppressions: jest.Mocked<SuppressionList>;
  let signingKeys: jest.Mocked<SigningKeys>;
  let counted: jest.Mock;

  /** The claim moves these messages (as the lifecycle's guards would) and reads them back. */
  function claimMoves(...messages: DeliverableMessage[]) {
    lifecycle.claim.mockResolvedValue({
      moved: messages.map((m) => ({ id: m.id, userId: m.userId, status: 'sending', attempt: m.attempt })) as never,
      outboxEventIds: [],
    });
    deliveries.deliverable.mockResolvedValue(messages);
  }

  beforeEach(() => {
    const built = automockProvider(DeliveryClaim);
    sut = built.sut;
    built.mock(Database).transaction.mockImplementation((work) => work(manager));
    lifecycle = built.mock(MessageLifecycle);
    deliveries = built.mock(DeliveryRepository);
    queue = built.mock(DeliveryQueue);
    suppressions = built.mock(SuppressionList);
    signingKeys = built.mock(SigningKeys);
    counted = jest.fn();
    Object.defineProperty(built.mock(Metrics), 'deliveries', { value: { inc: counted } });
    suppressions.among.mockResolvedValue(new Map());
    lifecycle.suppress.mockResolvedValue({ moved: [], outboxEventIds: [] });
    signingKeys.lookUp.mockResolvedValue(new Map());
  });

  it('claims each job for its attempt and gives back its message with its sender’s signing key', async () => {
    const message = stored('m1', ['bob@example.org']);
    claimMoves(message);
    signingKeys.lookUp.mockResolvedValue(new Map([['m1', KEY]]));
    const jobs = [job('j1', 'm1')];

    expect(await sut.claim(jobs)).toEqual([{ job: jobs[0], message: { ...message, signingKey: KEY } }]);

    expect(lifecycle.claim.mock.calls).toEqual([
      [manager, [{ messageId: 'm1', attempt: 1, note: null, keepSuppressed: false }], CLAIMED_COLUMNS],
    ]);
    expect(signingKeys.lookUp.mock.calls).toEqual([
      [manager, [{ id: 'm1', userId: 'user-1', senderAddress: 'ada@example.com' }]],
    ]);
    expect(counted).not.toHaveBeenCalled();
  });

  it('makes a scheduled job’s message due before claiming it', async () => {
    lifecycle.due.mockResolvedValue({ moved: [], outboxEventIds: [] });
    claimMoves(stored('m1', ['bob@example.org']));

    await sut.claim([job('j1', 'm1', { scheduled: true })]);

    expect(lifecycle.due.mock.calls).toEqual([[manager, ['m1']]]);
    expect(lifecycle.due.mock.invocationCallOrder[0]).toBeLessThan(lifecycle.claim.mock.invocationCallOrder[0]);
  });

  it('skips the suppressed recipients of a message, in its history note and in what it sends', async () => {
    suppressions.among.mockResolvedValue(new Map([['m1', { keys: ['carol@example.org'], all: false }]]));
    deliveries.recipientsOf.mockResolvedValue(
      new Map([['m1', { userId: 'user-1', bulk: false, entries: ['bob@example.org', 'Carol <CAROL@example.org>'] }]]),
    );
    suppressions.suppressedAmong.mockResolvedValue(new Map([['carol@example.org', 'manual']]));
    const message = stored('m1', ['bob@example.org', 'Carol <CAROL@example.org>']);
    claimMoves(message);

    const [claimed] = await sut.claim([job('j1', 'm1')]);

    expect(lifecycle.claim.mock.calls).toEqual([
      [
        manager,
        [
          {
            messageId: 'm1',
            attempt: 1,
            note: 'skipped suppressed recipients: carol@example.org',
            // Its fate, with the reason (docs/delivery-and-deliverability.md#statuses "Recipients").
            fates: [{ position: 1, key: 'carol@example.org', status: 'suppressed', detail: 'manual' }],
            keepSuppressed: false,
          },
        ],
        CLAIMED_COLUMNS,
      ],
    ]);
    expect(claimed.message.recipients).toEqual(['bob@example.org']);
    // Positions stay those of the stored message: the tokens of the others do not shift.
    expect(claimed.message.positions).toBe(message.positions);
    expect(lifecycle.suppress.mock.calls).toEqual([[manager, []]]);
  });

  it('ends a message whose every recipient is suppressed, completes its job and counts it', async () => {
    suppressions.among.mockResolvedValue(new Map([['m1', { keys: ['bob@example.org'], all: true }]]));
    deliveries.recipientsOf.mockResolvedValue(
      new Map([['m1', { userId: 'user-1', bulk: false, entries: ['bob@example.org'] }]]),
    );
    suppressions.suppressedAmong.mockResolvedValue(new Map([['bob@example.org', 'hard_bounce']]));
    lifecycle.suppress.mockResolvedValue({
      moved: [{ id: 'm1', userId: 'user-1', status: 'suppressed', attempt: 1 }],
      outboxEventIds: [],
    });
    claimMoves();
    queue.complete.mockResolvedValue();

    expect(await sut.claim([job('j1', 'm1')])).toEqual([]);

    expect(lifecycle.suppress.mock.calls).toEqual([
      [
        manager,
        [
          {
            messageId: 'm1',
            attempt: 1,
            detail: 'every recipient is suppressed: bob@example.org',
            fates: [{ position: 0, key: 'bob@example.org', status: 'suppressed', detail: 'hard_bounce' }],
          },
        ],
      ],
    ]);
    expect(lifecycle.claim.mock.calls).toEqual([[manager, [], CLAIMED_COLUMNS]]);
    expect(queue.complete.mock.calls).toEqual([[manager, ['j1']]]);
    expect(counted.mock.calls).toEqual([[{ outcome: 'suppressed' }, 1]]);
  });

  it('keeps the recipients shown suppressed so on a retry that sends only its remaining copies', async () => {
    claimMoves(stored('m1', ['bob@example.org'], 2));

    await sut.claim([job('j1', 'm1', { attempt: 2, copies: { pending: [0], accepted: 1 } })]);

    expect(lifecycle.claim.mock.calls).toEqual([
      [manager, [{ messageId: 'm1', attempt: 2, note: null, keepSuppressed: true }], CLAIMED_COLUMNS],
    ]);
  });

  it('completes, as skipped, the jobs whose message the claim did not move (final, or another attempt’s)', async () => {
    // m2 is at attempt 2 now: the job for attempt 1 came too late.
    claimMoves(stored('m1', ['bob@example.org']), stored('m2', ['dan@example.org'], 2));
    queue.complete.mockResolvedValue();
    const jobs = [job('j1', 'm1'), job('j2', 'm2'), job('j3', 'm3')];

    const claimed = await sut.claim(jobs);

    expect(claimed.map(({ job }) => job.id)).toEqual(['j1']);
    expect(queue.complete.mock.calls).toEqual([[manager, ['j2', 'j3']]]);
    expect(counted.mock.calls).toEqual([[{ outcome: 'skipped' }, 2]]);
  });
});
