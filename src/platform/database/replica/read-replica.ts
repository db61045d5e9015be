import { Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { DatabaseError, Pool, type QueryConfig } from 'pg';
import { Gauge } from 'prom-client';
import { AppConfig } from '../../config/app-config';
import { Metrics } from '../../metrics/metrics';
import { ScheduledTask } from '../../scheduled-task';
import { Database } from '../database';
import { StatementPool } from '../prepared-statements';
import { lsnOf, ReplayLag } from './replay-lag';

/** How often the replica's replay is compared with the primary's log. */
const PROBE_EVERY_MS = 250;
/** A probe the replica does not answer within this finds it unavailable. */
const PROBE_TIMEOUT_MS = 1_000;
/**
 * A read the replica has not answered within this is run again on the primary: lists are built to
 * answer in milliseconds, and a replica that stopped answering must not hold the client (or the
 * shutdown) for as long as TCP takes to give up.
 */
const READ_TIMEOUT_MS = 5_000;
const CONNECT_TIMEOUT_MS = 2_000;

/** Whether reads may go to the replica now, and if not, why. */
export type ReplicaState = { usable: true; lagMs: number } | { usable: false; why: 'lagging' | 'unavailable' };

/**
 * The streaming replica of DATABASE_READ_URL (docs/scaling.md#read-replicas): its own pool,
 * statements prepared as on the primary (DATABASE_POOL_MODE applies to both), and a probe every
 * PROBE_EVERY_MS, in the processes that serve the API, that finds how current it is (ReplayLag).
 * A replica that does not answer, or is not in recovery (promoted, or another server: its data may
 * never catch up), is not used until a probe finds it well again.
 */
@Injectable()
export class ReadReplica implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger(ReadReplica.name);
  private readonly pool?: Pool;
  private readonly statements?: StatementPool;
  private readonly probe?: ScheduledTask;
  private readonly lag: ReplayLag;
  private readonly maxLagMs: number;
  /** Registered only with a replica: without one, a lag would be a claim. */
  private readonly lagGauge?: Gauge;
  /**
   * The time as of which the replica holds all the primary had (ReplayLag); -Infinity when it is
   * behind every position kept; undefined: unavailable.
   */
  private currentAsOf?: number;
  /** Failures reported so far: a probe that began before one does not undo it. */
  private failures = 0;
  private warned = false;

  constructor(
    private readonly database: Database,
    config: AppConfig,
    metrics: Metrics,
  ) {
    this.maxLagMs = config.databaseReadMaxLagMs;
    // Positions are kept a minute at least (the gauge's "+Inf" past it), and beyond the bound by two probes.
    this.lag = new ReplayLag(Math.max(60_000, this.maxLagMs + 2 * PROBE_EVERY_MS));
    if (config.databaseReadUrl === undefined || config.role === 'worker') return;
    this.pool = new Pool({
      connectionString: config.databaseReadUrl,
      max: config.databasePoolSize,
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
      query_timeout: READ_TIMEOUT_MS,
      keepAlive: true,
      application_name: 'mailroom',
    });
    // An idle connection the replica drops (a restart) must not end the process; the next probe notices.
    this.pool.on('error', (error) => this.logger.warn(`replica connection lost: ${error.message}`));
    this.statements = new StatementPool(this.pool, config.databasePoolMode);
    this.lagGauge = new Gauge({
      name: 'mailroom_database_replica_lag_seconds',
      help: "The read replica's replay lag (+Inf: unavailable, or behind every log position kept, a minute at least)",
      registers: [metrics.registry],
      collect: () => this.lagGauge?.set(this.lagMs() / 1000),
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

  /** Whether a read may go to the replica now: its lag, growing since the last probe, within the bound. */
  state(now = Date.now()): ReplicaState {
    if (this.currentAsOf === undefined) return { usable: false, why: 'unavailable' };
    const lagMs = this.lagMs(now);
    return lagMs <= this.maxLagMs ? { usable: true, lagMs } : { usable: false, why: 'lagging' };
  }

  query<T>(sql: string, params: unknown[]): Promise<T[]> {
    return this.statements!.query<T>(sql, params);
  }

  /**
   * A read failed: when the replica is at fault (unreachable, timed out, shutting down, its replay
   * cancelled the read), it is not used until a probe finds it well; an error of the statement
   * itself says nothing of the replica.
   */
  failed(error: unknown): void {
    if (!isReplicaFault(error)) return;
    this.currentAsOf = undefined;
    this.failures++;
  }

  /** Primary first: a replica that has replayed past what the primary had then is current as of that moment. */
  async measure(): Promise<void> {
    const at = Date.now();
    const failuresBefore = this.failures;
    const [primary] = (await this.database.pool.query<{ lsn: string }>(`SELECT pg_current_wal_lsn()::text AS lsn`))
      .rows;
    this.lag.recordPrimary(lsnOf(primary.lsn), at);
    try {
      const { rows } = await this.pool!.query<{ standby: boolean; lsn: string | null }>({
        text: `SELECT pg_is_in_recovery() AS standby, pg_last_wal_replay_lsn()::text AS lsn`,
        query_timeout: PROBE_TIMEOUT_MS,
      } as QueryConfig);
      const [{ standby, lsn }] = rows;
      if (!standby || lsn === null) {
        this.warnOnce('DATABASE_READ_URL is not in recovery (not a streaming replica): reads stay on the primary');
        this.currentAsOf = undefined;
        return;
      }
      // A read that failed meanwhile found the replica faulty after this probe's answer: the next probe decides.
      if (this.failures !== failuresBefore) return;
      this.currentAsOf = this.lag.currentAsOf(lsnOf(lsn)) ?? Number.NEGATIVE_INFINITY;
    } catch {
      this.currentAsOf = undefined;
    }
  }

  private lagMs(now = Date.now()): number {
    return this.currentAsOf === undefined ? Infinity : Math.max(0, now - this.currentAsOf);
  }

  private warnOnce(message: string): void {
    if (!this.warned) this.logger.warn(message);
    this.warned = true;
  }
}

/**
 * Errors that are the replica's, not the statement's: not the server's answer (a socket refused,
 * reset or timed out), a connection exception (08…), the server shutting down or not yet accepting (57P…),
 * or a read cancelled by the replay it conflicted with (40001).
 */
function isReplicaFault(error: unknown): boolean {
  if (!(error instanceof DatabaseError) || error.code === undefined) return true;
  return error.code.startsWith('08') || error.code.startsWith('57P') || error.code === '40001';
}
