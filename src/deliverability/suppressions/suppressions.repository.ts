import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { Database } from '../../platform/database/database';
import { EventOutbox } from '../../webhooks';
import { SuppressionEntity } from './entities/suppression.entity';
import { mapSuppression } from './suppression.mapper';
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
  constructor(
    private readonly database: Database,
    private readonly outbox: EventOutbox,
  ) {}

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
   * transaction when given its manager (a report's status change and entry commit together). An
   * entry put on the list or widened is a suppression.created event (docs/delivery-and-deliverability.md#webhooks), in the same transaction.
   */
  async add(entry: NewSuppression, manager?: EntityManager): Promise<SuppressionEntity> {
    const [added] = await this.addMany([entry], manager);
    return added;
  }

  /**
   * Puts several addresses on their users' lists by add's rule, in one statement (the delivery
   * recorder's hard bounces of a batch); returns the entries as they now stand, one per address.
   * The same address twice in `entries` is put once, as the entry that stops more mail.
   */
  async addMany(entries: NewSuppression[], manager?: EntityManager): Promise<SuppressionEntity[]> {
    if (entries.length === 0) return [];
    if (!manager) return this.database.transaction((transaction) => this.addMany(entries, transaction));
    // One statement, so that two writers at once cannot narrow each other's entry either. The
    // entry there is updated even when it stays as it was (each column set to itself), so that
    // the statement always returns the row: a second statement to read it could find it deleted.
    // `before` and xmax tell a new or widened entry (an event) from one that stays as it was.
    const rows = await manager.query<(SuppressionEntity & { changed: boolean })[]>(
      `WITH before AS (
         SELECT s.user_id, s.email, s.reason, s.scope FROM suppressions s
         JOIN unnest($1::text[], $2::text[]) AS n(user_id, email) ON s.user_id = n.user_id AND s.email = n.email
       ), added AS (
       INSERT INTO suppressions AS s (user_id, email, reason, scope, message_id, created_at)
       SELECT DISTINCT ON (user_id, email) user_id, email, reason, scope, message_id, date_trunc('milliseconds', clock_timestamp())
       FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::uuid[]) AS n(user_id, email, reason, scope, message_id)
       -- An address twice in one statement would be updated twice, which PostgreSQL refuses: once, the widest.
       ORDER BY user_id, email, scope = 'all' DESC, reason = 'manual' DESC
       ON CONFLICT (user_id, email) DO UPDATE
         SET (reason, scope, message_id, created_at) = (
           SELECT CASE WHEN widens THEN EXCLUDED.reason ELSE s.reason END,
                  CASE WHEN widens THEN EXCLUDED.scope ELSE s.scope END,
                  CASE WHEN widens THEN EXCLUDED.message_id ELSE s.message_id END,
                  CASE WHEN widens THEN EXCLUDED.created_at ELSE s.created_at END
           FROM (SELECT (s.scope = 'bulk' AND EXCLUDED.scope = 'all') OR (s.reason = 'unsubscribe' AND EXCLUDED.reason = 'manual') AS widens) AS change)
       RETURNING user_id, email, reason, scope, message_id, created_at, xmax = 0 AS inserted
       )
       SELECT a.user_id AS "userId", a.email, a.reason, a.scope, a.message_id AS "messageId", a.created_at AS "createdAt",
         a.inserted OR (b.email IS NOT NULL AND (b.reason, b.scope) IS DISTINCT FROM (a.reason, a.scope)) AS changed
       FROM added a LEFT JOIN before b ON b.user_id = a.user_id AND b.email = a.email`,
      [
        entries.map((e) => e.userId),
        entries.map((e) => e.email),
        entries.map((e) => e.reason),
        entries.map((e) => e.scope ?? DEFAULT_SCOPES[e.reason]),
        entries.map((e) => e.messageId),
      ],
    );
    const added = rows.map(({ changed, ...row }) => ({
      changed,
      entry: manager.getRepository(SuppressionEntity).create(row),
    }));
    await this.outbox.record(
      manager,
      added
        .filter(({ changed }) => changed)
        .map(({ entry }) => ({
          userId: entry.userId,
          type: 'suppression.created' as const,
          data: { suppression: mapSuppression(entry) },
        })),
    );
    return added.map(({ entry }) => entry);
  }

  /**
   * Whether there was an entry to remove; with `reason`, only an entry for that reason goes. The
   * removal is a suppression.deleted event (docs/delivery-and-deliverability.md#webhooks), in the same transaction,
   * and so is `also` (its audit entry).
   */
  remove(
    userId: string,
    email: string,
    reason?: SuppressionReason,
    also?: (manager: EntityManager) => Promise<unknown>,
  ): Promise<boolean> {
    return this.database.transaction(async (manager) => {
      // A DELETE's answer through TypeORM: [rows, count].
      const [removed]: [SuppressionEntity[], number] = await manager.query(
        `DELETE FROM suppressions WHERE user_id = $1 AND email = $2 AND ($3::text IS NULL OR reason = $3)
         RETURNING user_id AS "userId", email, reason, scope, message_id AS "messageId", created_at AS "createdAt"`,
        [userId, email, reason ?? null],
      );
      if (removed.length === 0) return false;
      const suppression = mapSuppression(manager.getRepository(SuppressionEntity).create(removed[0]));
      await this.outbox.record(manager, [{ userId, type: 'suppression.deleted', data: { suppression } }]);
      await also?.(manager);
      return true;
    });
  }
}
