import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { preparedInTransaction } from '../../platform/database/prepared-in-transaction';
import { recipientRowsSql } from '../../messages';
import type { SuppressionReason } from './suppression-reason';

/** Which recipients of a message are on its owner's suppression list, and whether that is all of them. */
export interface SuppressedRecipients {
  /** Address keys (lower-cased), in no particular order. */
  keys: string[];
  all: boolean;
}

/** The suppression list as delivery reads it: at the moment a job takes its message (docs/delivery-and-deliverability.md#statuses). */
@Injectable()
export class SuppressionList {
  /**
   * The suppressed recipients (to, cc and bcc) of the given messages, read in the caller's
   * transaction; messages with none are absent. An entry counts by its scope (docs/delivery-and-deliverability.md): `all`
   * always, `bulk` only for a message with a bulkSendingId. One statement for a batch of jobs: it
   * joins the recipient rows (the messages context's SQL piece), which the entity API cannot do in
   * one round trip.
   */
  async among(manager: EntityManager, messageIds: string[]): Promise<Map<string, SuppressedRecipients>> {
    const found = new Map<string, SuppressedRecipients>();
    if (messageIds.length === 0) return found;
    // Run for every claim: planned once per connection (preparedInTransaction), not each time.
    const rows = await preparedInTransaction<{ message_id: string; keys: string[]; all_suppressed: boolean }>(
      manager,
      `SELECT r.message_id, array_agg(r.email) FILTER (WHERE s.email IS NOT NULL) AS keys, bool_and(s.email IS NOT NULL) AS all_suppressed
       FROM (${recipientRowsSql('$1::uuid[]')}) r
       LEFT JOIN suppressions s ON s.user_id = r.user_id AND s.email = r.email AND (s.scope = 'all' OR r.bulk)
       GROUP BY r.message_id
       HAVING bool_or(s.email IS NOT NULL)`,
      [messageIds],
    );
    for (const row of rows) found.set(row.message_id, { keys: row.keys, all: row.all_suppressed });
    return found;
  }

  /**
   * Which of the given address keys are on the user's list, with the reason of each: what a new
   * message's 201 shows (docs/delivery-and-deliverability.md#statuses), and the detail of a recipient the claim skips. `bulk`: whether
   * the message is bulk mail (it has a bulkSendingId), which a `bulk` entry alone stops (docs/delivery-and-deliverability.md).
   */
  async suppressedAmong(
    manager: EntityManager,
    userId: string,
    keys: string[],
    { bulk }: { bulk: boolean },
  ): Promise<Map<string, SuppressionReason>> {
    if (keys.length === 0) return new Map();
    const rows: { email: string; reason: SuppressionReason }[] = await manager.query(
      `SELECT email, reason FROM suppressions WHERE user_id = $1 AND email = ANY($2::text[]) AND (scope = 'all' OR $3)`,
      [userId, keys, bulk],
    );
    return new Map(rows.map((row) => [row.email, row.reason]));
  }
}
