import { Logger } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { automock, automockProvider } from '../../../test/support/automock';
import { Database } from '../../platform/database/database';
import { MessageLifecycle } from '../../messages';
import type { MessageStatus } from '../../messages';
import { Metrics } from '../../platform/metrics/metrics';
import { SuppressionsRepository } from '../suppressions/suppressions.repository';
import { AppliedReportsRepository } from './applied-reports.repository';
import { ApplyReportsUseCase, ReportBeforeAcceptanceError, ReportTarget } from './apply-reports.use-case';
import { DeliveryReport } from './delivery-report';

const TARGET: ReportTarget = {
  messageId: 'm1',
  userId: 'user-1',
  recipients: ['bob@example.org', 'carol@example.org'],
};
const BOB = 'bob@example.org';
const moved = (status: MessageStatus) => ({ id: 'm1', userId: 'user-1', status, attempt: 1 });

const report = (kind: DeliveryReport['kind'], fields: Partial<DeliveryReport> = {}): DeliveryReport => ({
  kind,
  recipient: BOB,
  diagnostic: '550 5.1.1 No such user',
  ...fields,
});

describe(ApplyReportsUseCase.name, () => {
  let sut: ApplyReportsUseCase;
  let manager: jest.Mocked<EntityManager>;
  let database: jest.Mocked<Database>;
  let lifecycle: jest.Mocked<MessageLifecycle>;
  let suppressions: jest.Mocked<SuppressionsRepository>;
  let applied: jest.Mocked<AppliedReportsRepository>;
  let bounces: jest.Mock;
  let complaints: jest.Mock;

  /** The report has not been applied before: its fingerprint's row goes in. */
  const firstTime = () => applied.recordFirst.mockResolvedValue(true);
  const fingerprintsWritten = () => applied.recordFirst.mock.calls.map(([, written]) => written.fingerprint);

  beforeEach(() => {
    const built = automockProvider(ApplyReportsUseCase);
    sut = built.sut;
    manager = automock<EntityManager>('EntityManager');
    database = built.mock(Database);
    database.transaction.mockImplementation((work) => work(manager));
    lifecycle = built.mock(MessageLifecycle);
    lifecycle.lockState.mockResolvedValue({ status: 'sent', attempts: 1 });
    suppressions = built.mock(SuppressionsRepository);
    suppressions.add.mockResolvedValue(undefined as never);
    applied = built.mock(AppliedReportsRepository);
    bounces = jest.fn();
    complaints = jest.fn();
    Object.defineProperties(built.mock(Metrics), {
      bounces: { value: { inc: bounces } },
      complaints: { value: { inc: complaints } },
    });
    jest.spyOn(Logger.prototype, 'log').mockImplementation();
  });
  afterEach(() => jest.restoreAllMocks());

  it('bounces the message on a hard bounce, suppresses the address and counts it', async () => {
    firstTime();
    lifecycle.bounce.mockResolvedValue(moved('bounced'));

    await sut.execute([report('bounce')], TARGET, BOB);

    const change = { messageId: 'm1', recipient: BOB, position: 0, detail: '550 5.1.1 No such user' };
    expect(lifecycle.bounce.mock.calls).toEqual([[manager, change]]);
    expect(suppressions.add.mock.calls).toEqual([
      [{ userId: 'user-1', email: BOB, reason: 'hard_bounce', messageId: 'm1' }, manager],
    ]);
    expect(bounces.mock.calls).toEqual([[{ user_id: 'user-1', kind: 'hard' }]]);
  });

  it('notes a hard bounce in the history when the message was already bounced, and still suppresses', async () => {
    firstTime();
    lifecycle.bounce.mockResolvedValue(undefined);
    lifecycle.note.mockResolvedValue();

    await sut.execute([report('bounce')], TARGET, BOB);

    expect(lifecycle.note.mock.calls).toEqual([
      [manager, { messageId: 'm1', recipient: BOB, position: 0, detail: '550 5.1.1 No such user' }],
    ]);
    expect(suppressions.add.mock.calls).toHaveLength(1);
  });

  it('bounces the message on a soft bounce without suppressing the address', async () => {
    firstTime();
    lifecycle.bounce.mockResolvedValue(moved('bounced'));

    await sut.execute([report('soft', { diagnostic: '552 5.2.2 Mailbox full' })], TARGET, BOB);

    expect(lifecycle.bounce.mock.calls).toHaveLength(1);
    expect(suppressions.add.mock.calls).toEqual([]);
    expect(bounces.mock.calls).toEqual([[{ user_id: 'user-1', kind: 'soft' }]]);
  });

  it('makes the message complained on a complaint, suppresses the address and counts its feedback type', async () => {
    firstTime();
    lifecycle.complain.mockResolvedValue(moved('complained'));

    await sut.execute([report('complaint', { diagnostic: 'abuse report', feedbackType: 'Abuse' })], TARGET, BOB);

    expect(lifecycle.complain.mock.calls).toEqual([
      [manager, { messageId: 'm1', recipient: BOB, position: 0, detail: 'abuse report' }],
    ]);
    expect(suppressions.add.mock.calls).toEqual([
      [{ userId: 'user-1', email: BOB, reason: 'complaint', messageId: 'm1' }, manager],
    ]);
    expect(complaints.mock.calls).toEqual([[{ user_id: 'user-1', kind: 'abuse' }]]);
  });

  it('changes nothing more for a report already applied (the same finding, whatever the mail)', async () => {
    lifecycle.bounce.mockResolvedValue(moved('bounced'));
    applied.recordFirst.mockResolvedValueOnce(true).mockResolvedValueOnce(false);

    await sut.execute([report('bounce')], TARGET, BOB);
    await sut.execute([report('bounce', { status: undefined })], TARGET, BOB);

    const [first, again] = fingerprintsWritten();
    expect(again).toBe(first);
    expect(lifecycle.bounce.mock.calls).toHaveLength(1);
    expect(suppressions.add.mock.calls).toHaveLength(1);
    expect(bounces.mock.calls).toHaveLength(1);
  });

  it('records a report about another recipient of the message as unrecognized, in the history only', async () => {
    firstTime();
    lifecycle.note.mockResolvedValue();

    await sut.execute([report('bounce', { recipient: 'carol@example.org' })], TARGET, BOB);

    expect(lifecycle.note.mock.calls).toEqual([
      [
        manager,
        {
          messageId: 'm1',
          recipient: BOB,
          position: 0,
          detail: 'unrecognized report: it names carol@example.org, not this recipient',
        },
      ],
    ]);
    expect(suppressions.add.mock.calls).toEqual([]);
    expect(bounces.mock.calls).toEqual([]);
  });

  it('keeps the address of a hard bounce about an address that is none of the message’s (a forwarder’s rewrite)', async () => {
    firstTime();
    lifecycle.bounce.mockResolvedValue(moved('bounced'));

    await sut.execute([report('bounce', { recipient: 'bob@forwarder.example' })], TARGET, BOB);

    expect(lifecycle.bounce.mock.calls).toEqual([
      [
        manager,
        {
          messageId: 'm1',
          recipient: BOB,
          position: 0,
          detail: '550 5.1.1 No such user (about bob@forwarder.example)',
        },
      ],
    ]);
    expect(suppressions.add.mock.calls).toEqual([]);
    expect(bounces.mock.calls).toEqual([[{ user_id: 'user-1', kind: 'soft' }]]);
  });

  it('refuses for now a report about a message not yet recorded as sent, changing nothing', async () => {
    lifecycle.lockState.mockResolvedValue({ status: 'sending', attempts: 1 });

    await expect(sut.execute([report('bounce')], TARGET, BOB)).rejects.toThrow(ReportBeforeAcceptanceError);

    expect(lifecycle.lockState.mock.calls).toEqual([[manager, 'm1']]);
    expect(applied.recordFirst.mock.calls).toEqual([]);
    expect(bounces.mock.calls).toEqual([]);
  });

  it('writes nothing for a report that changes nothing (an auto-reply)', async () => {
    await sut.execute([report('other', { diagnostic: 'auto-reply' })], TARGET, BOB);

    expect(database.transaction.mock.calls).toEqual([]);
  });
});
