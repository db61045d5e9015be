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

  /**
   * Pushes a held lease's end `seconds` from now. A lease already cleared (its holder stalled past
   * its end) is written again: the connection is still open, and counting it is the truth, even
   * if the site goes over its limit until it closes. True when it had to be written again.
   */
  async renew(lease: { id: string; site: Site; holder: string; seconds: number }): Promise<boolean> {
    const [{ restored }]: { restored: boolean }[] = await this.database.query(
      `INSERT INTO delivery_site_leases AS l (id, site, holder, expires_at)
       VALUES ($1, $2, $3, now() + $4::integer * interval '1 second')
       ON CONFLICT (id) DO UPDATE SET expires_at = excluded.expires_at
       RETURNING (xmax = 0) AS restored`,
      [lease.id, lease.site, lease.holder, lease.seconds],
    );
    return restored;
  }

  /** Whether the site's pause runs past now (no row: never slowed). */
  async isPaused(site: Site): Promise<boolean> {
    const rows: unknown[] = await this.database.query(
      `SELECT 1 FROM delivery_sites WHERE site = $1 AND paused_until > now()`,
      [site],
    );
    return rows.length > 0;
  }

  async release(ids: string[]): Promise<void> {
    await this.database.rowsChanged(`DELETE FROM delivery_site_leases WHERE id = ANY($1::uuid[])`, [ids]);
  }

  /** Deletes up to `batch` expired leases (their holders gone, on sites nobody asked for since); how many it deleted. */
  deleteExpiredLeases(batch: number): Promise<number> {
    return this.database.rowsChanged(
      `DELETE FROM delivery_site_leases WHERE id = ANY (ARRAY(
         SELECT id FROM delivery_site_leases WHERE expires_at <= now() LIMIT $1))`,
      [batch],
    );
  }

  /**
   * Deletes up to `batch` sites back at their full pace: not paused, every connection given back
   * by the quiet periods since the last slow-down, no live lease. Forgetting one loses nothing
   * (it comes back at its limit on sight) and keeps the long tail of domains seen once from
   * piling up. A site locked by a grant is skipped, not waited for.
   */
  deleteSitesAtFullPace(quietSeconds: number, batch: number): Promise<number> {
    return this.database.rowsChanged(
      `DELETE FROM delivery_sites WHERE site = ANY (ARRAY(
         SELECT s.site FROM delivery_sites s
         WHERE (s.paused_until IS NULL OR s.paused_until <= now())
           AND (s.last_slowed_at IS NULL
                OR s.last_slowed_at + (s.connection_limit - s.concurrency) * $1::integer * interval '1 second' <= now())
           AND NOT EXISTS (SELECT 1 FROM delivery_site_leases l WHERE l.site = s.site AND l.expires_at > now())
         LIMIT $2 FOR UPDATE SKIP LOCKED))`,
      [quietSeconds, batch],
    );
  }
}
