import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { Database } from '../../platform/database/database';
import type { Site } from './site-limits';
import type { SitePace } from './site-shaping';

/**
 * A site's pace, locked for the rest of the transaction, with the database's clock once the lock
 * is held (clock_timestamp(), not the transaction's start): every process reads one time.
 */
export interface LockedSite extends SitePace {
  now: Date;
}

const PACE_COLUMNS = `connection_limit AS "connectionLimit", concurrency, paused_until AS "pausedUntil",
  last_slowed_at AS "lastSlowedAt", clock_timestamp() AS now`;

/**
 * The delivery_sites and delivery_site_leases tables (docs/delivery-and-deliverability.md#direct-delivery).
 * Every statement stands alone or within one short transaction, with no session state (no
 * advisory lock, no LISTEN): a pooler in transaction mode may give each one another connection.
 */
@Injectable()
export class SiteLimitsRepository {
  constructor(private readonly database: Database) {}

  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.database.transaction(work);
  }

  /**
   * Locks the site's row until the transaction ends, inserting it at its limit on first sight; a
   * changed configured limit replaces the stored one (the allowance follows it down at once, up
   * through recovery). One statement, so two processes seeing a site first do not race.
   */
  async lock(manager: EntityManager, site: Site, connectionLimit: number): Promise<LockedSite> {
    const [row]: LockedSite[] = await manager.query(
      `INSERT INTO delivery_sites AS s (site, connection_limit, concurrency) VALUES ($1, $2, $2)
       ON CONFLICT (site) DO UPDATE SET
         connection_limit = excluded.connection_limit,
         concurrency = least(s.concurrency, excluded.connection_limit)
       RETURNING ${PACE_COLUMNS}`,
      [site, connectionLimit],
    );
    return row;
  }

  /**
   * Grants lease `id` when the site has fewer than `allowance` live leases, clearing its expired
   * ones (holders gone) on the way. Run after lock() in the same transaction: this statement's
   * snapshot, taken once the lock is held, sees every lease committed before it.
   */
  async grant(
    manager: EntityManager,
    lease: { id: string; site: Site; holder: string; seconds: number },
    allowance: number,
  ): Promise<boolean> {
    const rows: unknown[] = await manager.query(
      `WITH gone AS (
         DELETE FROM delivery_site_leases WHERE site = $2 AND expires_at <= now()
       ), live AS (
         SELECT count(*) AS n FROM delivery_site_leases WHERE site = $2 AND expires_at > now()
       )
       INSERT INTO delivery_site_leases (id, site, holder, expires_at)
       SELECT $1, $2, $3, now() + $4::integer * interval '1 second' FROM live WHERE live.n < $5::integer
       RETURNING id`,
      [lease.id, lease.site, lease.holder, lease.seconds, allowance],
    );
    return rows.length > 0;
  }

  /** Stores the pace a slow-down left (the row locked by lock()). */
  async savePace(manager: EntityManager, site: Site, pace: SitePace): Promise<void> {
    await manager.query(
      `UPDATE delivery_sites SET concurrency = $2, paused_until = $3, last_slowed_at = $4 WHERE site = $1`,
      [site, pace.concurrency, pace.pausedUntil, pace.lastSlowedAt],
    );
  }

  /** Pushes a held lease's end `seconds` from now; false when it is gone (expired and cleared). */
  async renew(id: string, seconds: number): Promise<boolean> {
    const changed = await this.database.rowsChanged(
      `UPDATE delivery_site_leases SET expires_at = now() + $2::integer * interval '1 second' WHERE id = $1`,
      [id, seconds],
    );
    return changed > 0;
  }

  async release(ids: string[]): Promise<void> {
    await this.database.rowsChanged(`DELETE FROM delivery_site_leases WHERE id = ANY($1::uuid[])`, [ids]);
  }
}
