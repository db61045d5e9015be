import { Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { Pool, type QueryConfig } from 'pg';
import { Gauge } from 'prom-client';
import { AppConfig } from '../../config/app-config';
import { Metrics } from '../../metrics/metrics';
import { ScheduledTask } from '../../scheduled-task';
import { Database } from '../database';
import { StatementPool } from '../prepared-statements';
import { lsnOf, ReplayLag } from './replay-lag';

/** How often the replica's replay is compared with the primary's log: the lag's resolution. */
const PROBE_EVERY_MS = 250;
/** A probe's answer is believed this long; a probe that hangs past it leaves the replica unusable. */
const PROBE_VALID_MS = 1_000;
const CONNECT_TIMEOUT_MS = 2_000;

/** What the last probe found: whether reads may go to the replica, and how far behind it was. */
export type ReplicaState = { usable: false; why: 'unavailable' } | { usable: boolean; why: 'lag'; lagMs: number };

/**
 * The streaming replica of DATABASE_READ_URL (docs/scaling.md#read-replicas): its own pool,
 * statements prepared as on the primary (DATABASE_POOL_MODE applies to both), and a probe that
 * measures its replay lag every PROBE_EVERY_MS in the processes that serve the API. A replica
 * that does not answer, or is not in recovery (a promoted or unrelated server, whose data may
 * never catch up), is simply not used until a probe finds it well again.
 */
@Injectable()
export class ReadReplica implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger(ReadReplica.name);
  private readonly pool?: Pool;
  private readonly statements?: StatementPool;
  private readonly probe?: ScheduledTask;
  private readonly lag = new ReplayLag();
  private readonly maxLagMs: number;
  private last?: { at: number; lagMs: number };
  /** Registered only with a replica: without one, a lag of 0 would be a claim. */
  private readonly lagGauge?: Gauge;
  private warned = false;

  constructor(
    private readonly database: Database,
    config: AppConfig,
    metrics: Metrics,
  ) {
    this.maxLagMs = config.databaseReadMaxLagMs;
    if (config.databaseReadUrl === undefined || config.role === 'worker') return;
    this.pool = new Pool({
      connectionString: config.databaseReadUrl,
      max: config.databasePoolSize,
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
      application_name: 'mailroom',
    });
    // An idle connection the replica drops (a restart) must not end the process; the next probe notices.
    this.pool.on('error', (error) => this.logger.warn(`replica connection lost: ${error.message}`));
    this.statements = new StatementPool(this.pool, config.databasePoolMode);
    this.lagGauge = new Gauge({
      name: 'mailroom_database_replica_lag_seconds',
      help: "The read replica's replay lag at its last probe (+Inf: it did not answer as a replica)",
      registers: [metrics.registry],
    });
    this.probe = new ScheduledTask(() => this.measure(), {
      everyMs: PROBE_EVERY_MS,
      firstRun: 'at-start',
      onError: () => undefined,
    });
  }

  /** True when DATABASE_READ_URL is set and this process serves reads. */
  get configured(): boolean {
    return this.pool !== undefined;
  }

  onModuleInit(): void {
    this.probe?.start();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.probe?.stop();
    await this.pool?.end();
  }

  /** Whether a read may go to the replica now: a recent probe found it replaying within the bound. */
  state(now = Date.now()): ReplicaState {
    if (this.last === undefined || now - this.last.at > PROBE_VALID_MS || this.last.lagMs === Infinity)
      return { usable: false, why: 'unavailable' };
    return { usable: this.last.lagMs <= this.maxLagMs, why: 'lag', lagMs: this.last.lagMs };
  }

  /** The lag the last probe measured (ms), Infinity when the replica did not answer as a replica. */
  get lastLagMs(): number {
    return this.last?.lagMs ?? Infinity;
  }

  query<T>(sql: string, params: unknown[]): Promise<T[]> {
    return this.statements!.query<T>(sql, params);
  }

  /** A missed answer says the replica is unusable at once, not at the next probe. */
  failed(): void {
    this.last = undefined;
  }

  /** Primary first: a replica that has replayed what the primary had then lags 0 (ReplayLag). */
  async measure(): Promise<void> {
    const at = Date.now();
    const [primary] = (await this.database.pool.query<{ lsn: string }>(`SELECT pg_current_wal_lsn()::text AS lsn`)).rows;
    this.lag.recordPrimary(lsnOf(primary.lsn), at);
    try {
      const { rows } = await this.pool!.query<{ lsn: string | null }>({
        text: `SELECT pg_last_wal_replay_lsn()::text AS lsn`,
        query_timeout: PROBE_VALID_MS,
      } as QueryConfig);
      if (rows[0].lsn === null) {
        this.warnOnce('DATABASE_READ_URL is not in recovery (not a streaming replica): reads stay on the primary');
        this.found(Infinity);
        return;
      }
      this.found(this.lag.lagMs(lsnOf(rows[0].lsn), Date.now()));
    } catch {
      this.found(Infinity);
    }
  }

  private found(lagMs: number): void {
    this.last = { at: Date.now(), lagMs };
    this.lagGauge?.set(lagMs / 1000);
  }

  private warnOnce(message: string): void {
    if (!this.warned) this.logger.warn(message);
    this.warned = true;
  }
}
