import { Logger } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { automockProvider } from '../../test/support/automock';
import { Database } from '../platform/database/database';
import { MessageLifecycle } from '../messages';
import { Metrics } from '../platform/metrics/metrics';
import { DeliveryQueue } from '../platform/queue/delivery-queue';
import { SuppressionsRepository } from '../deliverability';
import { DeliveryRecorder, JobResult } from './delivery-recorder';

const manager = {} as EntityManager;
const SENT_AT = new Date('2026-11-26T12:00:00Z');
/** The nextAttemptAt the statement gave a deferred message. */
const NEXT_ATTEMPT_AT = new Date('2026-11-26T12:00:31.234Z');

const result = (jobId: string, messageId: string, outcome: Partial<JobResult['finished']> = {}): JobResult => ({
  jobId,
  repliedAt: performance.now(),
  finished: {
    messageId,
    userId: 'user-1',
    attempt: 1,
    priority: 'normal',
    sentAt: SENT_AT,
    status: 'sent',
    detail: '250 2.0.0 Ok',
    fates: [],
    hardBounces: [],
    ...outcome,
  },
});

describe(DeliveryRecorder.name, () => {
  let sut: DeliveryRecorder;
  let database: jest.Mocked<Database>;
  let lifecycle: jest.Mocked<MessageLifecycle>;
  let queue: jest.Mocked<DeliveryQueue>;
  let suppressions: jest.Mocked<SuppressionsRepository>;
  let counted: jest.Mock;
  let latency: jest.Mock;
  let logged: { log: jest.SpyInstance; warn: jest.SpyInstance };

  /** The messages whose attempt is still sending: finish moves those alone, as its guard does. */
  function stillSending(...ids: string[]) {
    lifecycle.finish.mockImplementation((_, outcomes) =>
      Promise.resolve({
        moved: outcomes
          .filter((o) => ids.includes(o.messageId))
          .map((o) => ({
            id: o.messageId,
            userId: 'user-1',
            status: o.status,
            attempt: o.attempt,
            nextAttemptAt: o.status === 'deferred' ? NEXT_ATTEMPT_AT : null,
          })),
        outboxEventIds: [],
      }),
    );
  }

  beforeEach(() => {
    const built = automockProvider(DeliveryRecorder);
    sut = built.sut;
    database = built.mock(Database);
    database.transaction.mockImplementation((work) => work(manager));
    lifecycle = built.mock(MessageLifecycle);
    queue = built.mock(DeliveryQueue);
    queue.enqueue.mockResolvedValue();
    queue.complete.mockResolvedValue();
    suppressions = built.mock(SuppressionsRepository);
    suppressions.addMany.mockResolvedValue([]);
    counted = jest.fn();
    latency = jest.fn();
    Object.defineProperties(built.mock(Metrics), {
      deliveries: { value: { inc: counted } },
      deliveryLatency: { value: { observe: latency } },
      deliveryRecordTime: { value: { observe: jest.fn() } },
    });
    logged = {
      log: jest.spyOn(Logger.prototype, 'log').mockImplementation(),
      warn: jest.spyOn(Logger.prototype, 'warn').mockImplementation(),
    };
  });
  afterEach(() => jest.restoreAllMocks());

  it('records a sent attempt: its message finished, its job completed, counted with its latency', async () => {
    stillSending('m1');

    await sut.record(result('j1', 'm1'));

    expect(lifecycle.finish.mock.calls).toEqual([
      [manager, [expect.objectContaining({ messageId: 'm1', attempt: 1, status: 'sent', detail: '250 2.0.0 Ok' })]],
    ]);
    expect(queue.enqueue.mock.calls).toEqual([[manager, []]]);
    expect(queue.complete.mock.calls).toEqual([[manager, ['j1']]]);
    expect(counted.mock.calls).toEqual([[{ outcome: 'sent' }]]);
    expect(latency).toHaveBeenCalledTimes(1);
    expect(logged.log).toHaveBeenCalledWith(expect.anything(), 'Delivery sent (attempt 1): 250 2.0.0 Ok');
  });

  it('queues the next attempt of a deferred one, at the nextAttemptAt it shows and naming the copies still to go', async () => {
    stillSending('m1');
    const copies = { pending: [2], accepted: 1 };

    await sut.record(
      result('j1', 'm1', { status: 'deferred', detail: '451 Greylisted', retryAfterSeconds: 30, copies }),
    );

    expect(queue.enqueue.mock.calls).toEqual([
      [manager, [{ job: { messageId: 'm1', attempt: 2, copies }, priority: 'normal', startAt: NEXT_ATTEMPT_AT }]],
    ]);
    expect(queue.complete.mock.calls).toEqual([[manager, ['j1']]]);
    expect(counted.mock.calls).toEqual([[{ outcome: 'deferred' }]]);
    expect(latency).not.toHaveBeenCalled();
  });

  it('records a failed one without a next attempt', async () => {
    stillSending('m1');

    await sut.record(result('j1', 'm1', { status: 'failed', detail: '550 No such user' }));

    expect(queue.enqueue.mock.calls).toEqual([[manager, []]]);
    expect(counted.mock.calls).toEqual([[{ outcome: 'failed' }]]);
    expect(logged.warn).toHaveBeenCalledWith(expect.anything(), 'Delivery failed (attempt 1): 550 No such user');
  });

  it('suppresses the hard bounces of a batch in one statement, in its transaction', async () => {
    stillSending('m1', 'm2');

    await Promise.all([
      sut.record(result('j1', 'm1', { status: 'failed', hardBounces: ['gone@example.com'] })),
      sut.record(result('j2', 'm2', { hardBounces: ['a@example.com', 'b@example.com'] })),
    ]);

    const entry = (email: string, messageId: string) => ({ userId: 'user-1', email, reason: 'hard_bounce', messageId });
    expect(suppressions.addMany.mock.calls).toEqual([
      [[entry('gone@example.com', 'm1'), entry('a@example.com', 'm2'), entry('b@example.com', 'm2')], manager],
    ]);
  });

  it('suppresses nothing for a late or duplicate attempt, whose outcome changed nothing (docs/delivery-and-deliverability.md)', async () => {
    stillSending('m2');

    await Promise.all([
      sut.record(result('j1', 'm1', { status: 'failed', hardBounces: ['gone@example.com'] })),
      sut.record(result('j2', 'm2', { hardBounces: ['kept@example.com'] })),
    ]);

    const suppressed = suppressions.addMany.mock.calls.flatMap(([entries]) => entries.map((e) => e.email));
    expect(suppressed).toEqual(['kept@example.com']);
  });

  it('completes the job of a duplicate attempt (the message moved on) without retrying it, and says so', async () => {
    stillSending();

    await sut.record(result('j1', 'm1', { status: 'deferred', detail: '451 Later', retryAfterSeconds: 0 }));

    expect(queue.enqueue.mock.calls).toEqual([[manager, []]]);
    expect(queue.complete.mock.calls).toEqual([[manager, ['j1']]]);
    expect(logged.warn).toHaveBeenCalledWith(
      expect.anything(),
      expect.stringMatching(/^Delivery deferred \(attempt 1\) but not recorded/),
    );
  });

  it('writes the outcomes that arrive in the same turn in one transaction', async () => {
    stillSending('m1', 'm2');

    await Promise.all([sut.record(result('j1', 'm1')), sut.record(result('j2', 'm2'))]);

    expect(database.transaction.mock.calls).toHaveLength(1);
    expect(queue.complete.mock.calls).toEqual([[manager, ['j1', 'j2']]]);
    expect(counted).toHaveBeenCalledTimes(2);
  });
});
