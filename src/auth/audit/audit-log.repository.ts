import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { Database } from '../../platform/database/database';
import { AuditLogEntryEntity } from './entities/audit-log-entry.entity';

export type NewAuditLogEntry = Omit<AuditLogEntryEntity, 'at'>;

/** What a list may be narrowed to: one actor (its id), one action. */
export interface AuditLogFilter {
  actor?: string;
  action?: string;
}

/** The accounts' audit logs; every read takes the account, so no one reads another's. */
@Injectable()
export class AuditLogRepository {
  constructor(private readonly database: Database) {}

  /** In the caller's transaction: the change's own. `at` is the database's clock, as every other row's. */
  async add(manager: EntityManager, entry: NewAuditLogEntry): Promise<void> {
    await manager.query(
      `INSERT INTO audit_log_entries
         (id, user_id, at, actor_type, actor_id, actor_label, action, target_type, target_id, client_address, detail)
       VALUES ($1, $2, date_trunc('milliseconds', clock_timestamp()), $3, $4, $5, $6, $7, $8, $9, $10)`,
      [
        entry.id,
        entry.userId,
        entry.actorType,
        entry.actorId,
        entry.actorLabel,
        entry.action,
        entry.targetType,
        entry.targetId,
        entry.clientAddress,
        JSON.stringify(entry.detail),
      ],
    );
  }

  /** A page of the account's entries, newest first (ids break ties: uuidv7 grows with time), and how many match. */
  page(userId: string, filter: AuditLogFilter, skip: number, take: number): Promise<[AuditLogEntryEntity[], number]> {
    return this.database.repository(AuditLogEntryEntity).findAndCount({
      where: {
        userId,
        ...(filter.actor !== undefined && { actorId: filter.actor }),
        ...(filter.action !== undefined && { action: filter.action }),
      },
      order: { at: 'DESC', id: 'DESC' },
      skip,
      take,
    });
  }

  /** Deletes up to `limit` entries older than `before`, oldest first; returns how many. */
  async purge(before: Date, limit: number): Promise<number> {
    return this.database.rowsChanged(
      `DELETE FROM audit_log_entries WHERE id IN (
         SELECT id FROM audit_log_entries WHERE at < $1 ORDER BY at LIMIT $2 FOR UPDATE SKIP LOCKED)`,
      [before, limit],
    );
  }
}
