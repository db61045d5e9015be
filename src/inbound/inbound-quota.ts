import { Injectable } from '@nestjs/common';
import { AppConfig } from '../platform/config/app-config';
import { InboundRepository } from './inbound.repository';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Each user's inbound storage quota (INBOUND_DAILY_QUOTA_BYTES): the bytes of the mail it received
 * in the last 24 hours. A user at or past it gets no more mail until the window moves on: its
 * recipients are answered 452 4.2.2 (mailbox full, RFC 3463) at RCPT, and again at DATA for a
 * session that passed RCPT meanwhile when every user of the mail is full, so a sender keeps the
 * mail and tries again later. A mail that starts under the quota is taken whole, for each of its
 * users, so the quota may be passed by the mails in flight at once; other users' mail is never
 * refused for it.
 */
@Injectable()
export class InboundQuota {
  constructor(
    private readonly config: AppConfig,
    private readonly inbound: InboundRepository,
  ) {}

  /** The SMTP reply text (after 452) for `address` when its user is at its quota, else undefined. */
  async refusal(userId: string, address: string): Promise<string | undefined> {
    const quota = this.config.inbound.dailyQuotaBytes;
    const received = await this.inbound.bytesReceivedSince(userId, new Date(Date.now() - DAY_MS));
    if (received < quota) return undefined;
    return `4.2.2 <${address}>: mailbox over its quota of ${quota} bytes a day, try again later`;
  }

  /** The first user's refusal when every user of the recipients is at its quota, else undefined. */
  async everyUserFull(recipients: { userId: string; address: string }[]): Promise<string | undefined> {
    const firstAddress = new Map<string, string>();
    for (const { userId, address } of recipients) if (!firstAddress.has(userId)) firstAddress.set(userId, address);
    let first: string | undefined;
    for (const [userId, address] of firstAddress) {
      const refusal = await this.refusal(userId, address);
      if (!refusal) return undefined;
      first ??= refusal;
    }
    return first;
  }
}
