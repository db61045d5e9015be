import { Injectable, Logger } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { EntityManager } from 'typeorm';
import { asciiAddressKey } from '../../platform/mail/addresses';
import { Database } from '../../platform/database/database';
import { MessageLifecycle } from '../../messages';
import { UNFINISHED_STATUSES } from '../../messages';
import type { MessageStatus } from '../../messages';
import { Metrics } from '../../platform/metrics/metrics';
import { SuppressionsRepository } from '../suppressions/suppressions.repository';
import { AppliedReportsRepository } from './applied-reports.repository';
import type { DeliveryReport, ReportKind } from './delivery-report';
import { COMPLAINT_FEEDBACK_TYPES } from './reports/feedback-report';

/** The message a VERP token names, and its owner, whose list and counters a report changes. */
export interface ReportTarget {
  messageId: string;
  userId: string;
  /** The address keys of all its recipients, to tell a report about another of them. */
  recipients: string[];
}

/** A report as the loop applies it: about the one recipient of the message its token names. */
interface Finding {
  kind: Exclude<ReportKind, 'other'>;
  recipient: string;
  detail: string;
  /** The report's RFC 3463 status code, when it gives one. */
  status?: string;
  /** For complaints: the RFC 5965 Feedback-Type. */
  feedbackType?: string;
}

/** Statuses before the relay's acceptance is recorded (docs/delivery-and-deliverability.md#statuses): its delivery is still to come. */
const NOT_YET_SENT = new Set<MessageStatus>(UNFINISHED_STATUSES);

/** A report about a message whose acceptance is not recorded yet: worth retrying (SMTP 451). */
export class ReportBeforeAcceptanceError extends Error {
  constructor(messageId: string, status: MessageStatus) {
    super(`report about message ${messageId} while it is ${status}: its delivery is not recorded yet`);
  }
}

/**
 * What one mail to `bounces+<token>` does to the token's recipient (docs/delivery-and-deliverability.md), in one transaction: a
 * permanent failure bounces the message (and suppresses the address when the failure is about
 * the address itself), a complaint makes it complained and suppresses the address, a delay notice
 * and a report nobody could read are history entries only, and anything else (an auto-reply, a
 * delivery confirmation) changes nothing; a report about a message not yet recorded as sent is
 * refused for now (ReportBeforeAcceptanceError), to come again. Each status change fires its
 * webhook through the lifecycle. A report already applied (the same finding: message, recipient,
 * kind, status code and diagnostic) changes nothing more, however it came again.
 */
@Injectable()
export class ApplyReportsUseCase {
  private readonly logger = new Logger('Reports');

  constructor(
    private readonly database: Database,
    private readonly lifecycle: MessageLifecycle,
    private readonly suppressions: SuppressionsRepository,
    private readonly appliedReports: AppliedReportsRepository,
    private readonly metrics: Metrics,
  ) {}

  /**
   * `reports`: what the report reader read in the mail; `recipient`: the address key the token
   * names. Resolves once what the mail says is committed.
   */
  async execute(reports: DeliveryReport[], target: ReportTarget, recipient: string): Promise<void> {
    const finding = findingOf(reports, target, recipient);
    const line = { messageId: target.messageId, userId: target.userId };
    if (!finding) {
      for (const r of reports) this.logger.log({ ...line, kind: r.kind }, `Report changes nothing: ${r.diagnostic}`);
      return;
    }
    const fingerprint = fingerprintOf(target.messageId, finding);
    const fresh = await this.database.transaction(async (manager) => {
      await this.refuseBeforeAcceptance(manager, target.messageId);
      const { recipient, kind } = finding;
      if (
        !(await this.appliedReports.recordFirst(manager, { messageId: target.messageId, recipient, kind, fingerprint }))
      )
        return false;
      await this.applyOne(manager, target, finding);
      return true;
    });
    const { kind, recipient: about, detail } = finding;
    const logged = { ...line, kind, recipient: about, fingerprint };
    if (!fresh) return this.logger.log(logged, `Report already applied (${kind}), nothing changed`);
    this.count(target.userId, finding);
    this.logger.log(logged, `Report applied (${kind}) for ${about}: ${detail}`);
  }

  /**
   * A report can only follow the relay's acceptance, but it may arrive before this service has
   * recorded it (the relay bounces at once while the worker is still writing `sent`). Applied now,
   * it would find nothing to bounce and count as applied; refused for now, the sender retries.
   * The lock holds the status read until the report's change commits.
   */
  private async refuseBeforeAcceptance(manager: EntityManager, messageId: string): Promise<void> {
    const state = await this.lifecycle.lockState(manager, messageId);
    if (state && NOT_YET_SENT.has(state.status)) throw new ReportBeforeAcceptanceError(messageId, state.status);
  }

  private async applyOne(
    manager: EntityManager,
    target: ReportTarget,
    { kind, recipient, detail }: Finding,
  ): Promise<void> {
    const { messageId, userId } = target;
    // PostgreSQL text cannot hold U+0000, which a report's words may carry: it would fail the
    // transaction, and the listener would answer 451 to that report for ever.
    const position = target.recipients.indexOf(recipient);
    const change = { messageId, detail: detail.replaceAll('\u0000', '\ufffd'), recipient, position };
    if (kind === 'bounce' || kind === 'soft' || kind === 'complaint') {
      const moved =
        kind === 'complaint'
          ? await this.lifecycle.complain(manager, change)
          : await this.lifecycle.bounce(manager, change);
      // Already bounced for another recipient, or complained (final): the report still goes in the history.
      if (!moved) await this.lifecycle.note(manager, change);
    } else {
      await this.lifecycle.note(manager, change);
    }
    if (kind === 'bounce' || kind === 'complaint') {
      const reason = kind === 'bounce' ? 'hard_bounce' : 'complaint';
      await this.suppressions.add({ userId, email: recipient, reason, messageId }, manager);
    }
  }

  private count(userId: string, { kind, feedbackType }: Finding): void {
    if (kind === 'bounce' || kind === 'soft')
      this.metrics.bounces.inc({ user_id: userId, kind: kind === 'bounce' ? 'hard' : 'soft' });
    if (kind === 'complaint') {
      const type = feedbackType?.toLowerCase() ?? '';
      this.metrics.complaints.inc({ user_id: userId, kind: COMPLAINT_FEEDBACK_TYPES.has(type) ? type : 'other' });
    }
  }
}

/**
 * What a mail to `bounces+<token>` says about the token's recipient, the only one it can be about:
 * each copy of a message has its own envelope sender, so a report naming another recipient of the
 * message (sent by a recipient who read their own token, or to several tokens at once) changes
 * nothing about either. The report naming the token's recipient is applied; else a lone report
 * naming nobody, or an address that is none of the message's (a forwarder's rewrite), is applied
 * to the token's recipient, except that another address's hard bounce says nothing certain of
 * ours: it bounces the message and keeps the address (a false hard bounce is the worst error).
 * Anything else is recorded as unrecognized. Undefined: the report changes nothing (an auto-reply).
 */
function findingOf(reports: DeliveryReport[], target: ReportTarget, recipient: string): Finding | undefined {
  const ours = asciiAddressKey(recipient);
  const isOurs = (report: DeliveryReport) =>
    report.recipient !== undefined && asciiAddressKey(report.recipient) === ours;
  const ofMessage = (address: string) =>
    target.recipients.some((key) => asciiAddressKey(key) === asciiAddressKey(address));
  const lone =
    reports.length === 1 && !isOurs(reports[0]) && !(reports[0].recipient && ofMessage(reports[0].recipient))
      ? reports[0]
      : undefined;
  const report = reports.find(isOurs) ?? lone;
  if (!report) {
    const named = reports.map((r) => r.recipient ?? 'nobody').join(', ');
    return { kind: 'unrecognized', recipient, detail: `unrecognized report: it names ${named}, not this recipient` };
  }
  const { status, feedbackType, diagnostic } = report;
  const rewritten = report === lone && report.recipient !== undefined;
  const kind = rewritten && report.kind === 'bounce' ? 'soft' : report.kind;
  if (kind === 'other') return undefined;
  const said = rewritten ? `${diagnostic} (about ${report.recipient})` : diagnostic;
  return {
    kind,
    recipient,
    detail: detailOf(kind, said, report.gaveUp === true),
    ...(status !== undefined && { status }),
    ...(feedbackType !== undefined && { feedbackType }),
  };
}

/** What the history shows: the server's words, after what they mean when the status alone does not say it. */
function detailOf(kind: Finding['kind'], said: string, gaveUp: boolean): string {
  if (kind === 'delay') return `delivery delayed: ${said}`;
  if (kind === 'unrecognized') return `unrecognized report: ${said}`;
  return kind === 'soft' && gaveUp ? `the relay gave up after retrying: ${said}` : said;
}

/**
 * What makes two reports the same: what they say, not the mail that carried them. The same
 * report comes again with other bytes when a sender that lost our reply regenerates it (a new
 * Message-ID and Date) or it travels another way (one more Received: line).
 */
function fingerprintOf(messageId: string, { recipient, kind, status, detail }: Finding): string {
  return createHash('sha256')
    .update(JSON.stringify([messageId, recipient, kind, status ?? null, detail]))
    .digest('hex');
}
