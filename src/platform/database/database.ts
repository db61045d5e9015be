import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Pool } from 'pg';
import { DataSource, EntityManager, EntityTarget, ObjectLiteral, Repository } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';

/**
 * The application's one way into PostgreSQL: transactions and entity repositories through
 * TypeORM, and the underlying pg pool for the few that speak to it directly (pg-boss, prepared
 * statements), which share its connections.
 */
@Injectable()
export class Database {
  /** The pool TypeORM opened: the only one this process has. */
  readonly pool: Pool;

  constructor(@InjectDataSource() readonly dataSource: DataSource) {
    this.pool = (dataSource.driver as PostgresDriver).master as Pool;
  }

  get manager(): EntityManager {
    return this.dataSource.manager;
  }

  /** One statement outside any transaction. */
  query<T = unknown>(sql: string, parameters?: unknown[]): Promise<T> {
    return this.dataSource.query(sql, parameters);
  }

  /** One DELETE or UPDATE outside any transaction: how many rows it changed (no counting CTE needed). */
  async rowsChanged(sql: string, parameters?: unknown[]): Promise<number> {
    return (await this.pool.query(sql, parameters)).rowCount ?? 0;
  }

  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(work);
  }

  repository<T extends ObjectLiteral>(entity: EntityTarget<T>): Repository<T> {
    return this.dataSource.getRepository(entity);
  }
}
