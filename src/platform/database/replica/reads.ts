import { AsyncLocalStorage } from 'node:async_hooks';
import { Injectable } from '@nestjs/common';
import { Metrics } from '../../metrics/metrics';
import { PreparedStatements } from '../prepared-statements';
import { ReadReplica } from './read-replica';
import { RecentWrites } from './recent-writes';

/** Why a read went where it went: the `reason` label of mailroom_database_reads_total. */
export type ReadReason =
  'replica' | 'internal' | 'own_write' | 'lagging' | 'unavailable' | 'replica_error' | 'replica_miss';

/** A read on behalf of one owner, as an API request makes it: only these may go to the replica. */
interface ReadScope {
  ownerId: string;
  /**
   * Where the request's reads go, decided at its first read and kept: a list and its count, a
   * mail and its attachments come from one server. Once the replica misses a row or fails, the
   * rest of the request reads the primary: what was found there has its parts there.
   */
  route?: Promise<ReadReason>;
}

/**
 * Where the API's reads of lists, stats, read-back and inbound mail run (SPEC §8,
 * docs/scaling.md#read-replicas): on the replica while its lag is within DATABASE_READ_MAX_LAG_MS
 * and the owner has not written in the last 5 s, else on the primary; a read the replica fails is
 * run again on the primary, so a replica that is down costs the client only time.
 *
 * Only a read inside `scope()` for its owner may leave the primary: the scope is an API request's
 * (ReadScopeInterceptor). The same repository methods serve workers (a webhook's message, a reply's
 * link), which must see what was just committed, and they call outside any scope.
 */
@Injectable()
export class Reads {
  private readonly scopes = new AsyncLocalStorage<ReadScope>();

  constructor(
    private readonly primary: PreparedStatements,
    private readonly replica: ReadReplica,
    private readonly recentWrites: RecentWrites,
    private readonly metrics: Metrics,
  ) {}

  /** Runs `work` (an API request's handling) as reads of `ownerId`, which may go to the replica. */
  scope<T>(ownerId: string, work: () => T): T {
    if (!this.replica.configured) return work();
    return this.scopes.run({ ownerId }, work);
  }

  /** One read statement of `ownerId`'s data, where the rule says. */
  async query<T>(ownerId: string, sql: string, params: unknown[]): Promise<T[]> {
    const reason = await this.routeOf(ownerId);
    if (reason !== 'replica') return this.onPrimary(reason, sql, params);
    try {
      const rows = await this.replica.query<T>(sql, params);
      this.metrics.databaseReads.inc({ target: 'replica', reason });
      return rows;
    } catch (error) {
      this.replica.failed(error);
      return this.onPrimary(this.leaveReplica('replica_error'), sql, params);
    }
  }

  /**
   * One row by its id, where the rule says; a row the replica does not have yet is looked for on
   * the primary: a webhook consumer fetching the message or mail it was just told of gets it, not
   * a 404, and a row that exists nowhere costs one read more.
   */
  async findOne<T>(ownerId: string, sql: string, params: unknown[]): Promise<T | undefined> {
    const reason = await this.routeOf(ownerId);
    if (reason !== 'replica') return (await this.onPrimary<T>(reason, sql, params))[0];
    try {
      const [row] = await this.replica.query<T>(sql, params);
      if (row !== undefined) {
        this.metrics.databaseReads.inc({ target: 'replica', reason });
        return row;
      }
      return (await this.onPrimary<T>(this.leaveReplica('replica_miss'), sql, params))[0];
    } catch (error) {
      this.replica.failed(error);
      return (await this.onPrimary<T>(this.leaveReplica('replica_error'), sql, params))[0];
    }
  }

  private routeOf(ownerId: string): Promise<ReadReason> {
    const scope = this.scopes.getStore();
    if (scope?.ownerId !== ownerId) return Promise.resolve('internal');
    scope.route ??= this.decide(ownerId);
    return scope.route;
  }

  private async decide(ownerId: string): Promise<ReadReason> {
    const replica = this.replica.state();
    if (!replica.usable) return replica.why;
    return (await this.recentWrites.wroteLately(ownerId)) ? 'own_write' : 'replica';
  }

  /** Sends the rest of the request's reads to the primary, for `reason`. */
  private leaveReplica(reason: 'replica_miss' | 'replica_error'): ReadReason {
    const scope = this.scopes.getStore();
    if (scope) scope.route = Promise.resolve(reason);
    return reason;
  }

  private async onPrimary<T>(reason: ReadReason, sql: string, params: unknown[]): Promise<T[]> {
    const rows = await this.primary.query<T>(sql, params);
    // Without a replica every read is the primary's: nothing to count.
    if (this.replica.configured) this.metrics.databaseReads.inc({ target: 'primary', reason });
    return rows;
  }
}
