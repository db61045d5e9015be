import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { Database } from '../database/database';
import { SuppressionEntity } from './entities/suppression.entity';
import { DEFAULT_SCOPES } from './suppression-reason';
import type { SuppressionReason, SuppressionScope } from './suppression-reason';

/** An entry to add: `email` is the address key (recipientKey); `scope` defaults to the reason's. */
export interface NewSuppression {
  userId: string;
  email: string;
  reason: SuppressionReason;
  scope?: SuppressionScope;
  /** The message whose bounce, complaint or unsubscribe caused it; null for a manual entry. */
  messageId: string | null;
}

/**
 * A user's suppression list; every method takes the owner, so no one reaches another's entries.
 * The one place that writes the table: the API, bounce reports, complaints and unsubscribes all
 * add and remove through here.
 */
@Injectable()
export class SuppressionsRepository {
  constructor(private readonly database: Database) {}

  private get entries() {
    return this.database.repository(SuppressionEntity);
  }

  /** A page of the list, newest first, with the number of entries the filter leaves. */
  page(userId: string, email: string | undefined, skip: number, take: number): Promise<[SuppressionEntity[], number]> {
    return this.entries.findAndCount({
      where: { userId, ...(email !== undefined && { email }) },
      order: { createdAt: 'DESC', email: 'DESC' },
      skip,
      take,
    });
  }

  /**
   * Puts an address on the list; returns the entry as it now stands. One entry per address, and
   * it never narrows: a new entry replaces the one there only when it stops more mail (`all` over
   * `bulk`: a hard bounce, a complaint or a manual entry after an unsubscribe), taking its reason,
   * message and date; otherwise the entry there stays as it was (an unsubscribe after a hard
   * bounce, a second unsubscribe, a manual `bulk` entry on an `all` one). In the caller's
   * transaction when given its manager (a report's status change and entry commit together).
   */
  async add(entry: NewSuppression, manager: EntityManager = this.database.manager): Promise<SuppressionEntity> {
    const { userId, email, reason, messageId } = entry;
    const scope = entry.scope ?? DEFAULT_SCOPES[reason];
    // One statement, so that two writers at once cannot narrow each other's entry either.
    await manager.query(
      `INSERT INTO suppressions (user_id, email, reason, scope, message_id, created_at)
       VALUES ($1, $2, $3, $4, $5, date_trunc('milliseconds', clock_timestamp()))
       ON CONFLICT (user_id, email) DO UPDATE
         SET reason = EXCLUDED.reason, scope = EXCLUDED.scope,
             message_id = EXCLUDED.message_id, created_at = EXCLUDED.created_at
         WHERE suppressions.scope = 'bulk' AND EXCLUDED.scope = 'all'`,
      [userId, email, reason, scope, messageId],
    );
    return manager.getRepository(SuppressionEntity).findOneByOrFail({ userId, email });
  }

  /** Whether there was an entry to remove; with `reason`, only an entry for that reason goes. */
  async remove(userId: string, email: string, reason?: SuppressionReason): Promise<boolean> {
    const { affected } = await this.entries.delete({ userId, email, ...(reason && { reason }) });
    return (affected ?? 0) > 0;
  }
}
