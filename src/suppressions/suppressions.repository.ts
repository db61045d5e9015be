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
   * bounce, a second unsubscribe, a manual `bulk` entry on an `all` one). A manual entry also
   * replaces an unsubscribe of the same scope: it is the owner's, which the reader's Undo (that
   * removes only unsubscribes) must not lift. In the caller's
   * transaction when given its manager (a report's status change and entry commit together).
   */
  async add(entry: NewSuppression, manager: EntityManager = this.database.manager): Promise<SuppressionEntity> {
    const { userId, email, reason, messageId } = entry;
    const scope = entry.scope ?? DEFAULT_SCOPES[reason];
    // One statement, so that two writers at once cannot narrow each other's entry either. The
    // entry there is updated even when it stays as it was (each column set to itself), so that
    // the statement always returns the row: a second statement to read it could find it deleted.
    const [row] = await manager.query<SuppressionEntity[]>(
      `INSERT INTO suppressions AS s (user_id, email, reason, scope, message_id, created_at)
       VALUES ($1, $2, $3, $4, $5, date_trunc('milliseconds', clock_timestamp()))
       ON CONFLICT (user_id, email) DO UPDATE
         SET (reason, scope, message_id, created_at) = (
           SELECT CASE WHEN widens THEN EXCLUDED.reason ELSE s.reason END,
                  CASE WHEN widens THEN EXCLUDED.scope ELSE s.scope END,
                  CASE WHEN widens THEN EXCLUDED.message_id ELSE s.message_id END,
                  CASE WHEN widens THEN EXCLUDED.created_at ELSE s.created_at END
           FROM (SELECT (s.scope = 'bulk' AND EXCLUDED.scope = 'all') OR (s.reason = 'unsubscribe' AND EXCLUDED.reason = 'manual') AS widens) AS change)
       RETURNING user_id AS "userId", email, reason, scope, message_id AS "messageId", created_at AS "createdAt"`,
      [userId, email, reason, scope, messageId],
    );
    return manager.getRepository(SuppressionEntity).create(row);
  }

  /** Whether there was an entry to remove; with `reason`, only an entry for that reason goes. */
  async remove(userId: string, email: string, reason?: SuppressionReason): Promise<boolean> {
    const { affected } = await this.entries.delete({ userId, email, ...(reason && { reason }) });
    return (affected ?? 0) > 0;
  }
}
