import { DynamicModule, Global, Module } from '@nestjs/common';
import { APP_INTERCEPTOR } from '@nestjs/core';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AppConfig, ConfigurationError, type DatabasePoolMode } from '../config/app-config';
import { dataSourceOptions, Entities, runMigrationsExclusively } from './data-source-options';
import { Database } from './database';
import type { MigrationContext } from './migration-context';
import { EmbeddedPostgres } from './embedded-postgres';
import { setPoolMode } from './pool-mode';
import { PreparedStatements } from './prepared-statements';
import { ReadReplica } from './replica/read-replica';
import { ReadScopeInterceptor } from './replica/read-scope.interceptor';
import { Reads } from './replica/reads';
import { RecentWrites } from './replica/recent-writes';

@Module({
  providers: [
    { provide: EmbeddedPostgres, inject: [AppConfig], useFactory: (c: AppConfig) => new EmbeddedPostgres(c.dataDir) },
  ],
  exports: [EmbeddedPostgres],
})
class EmbeddedPostgresModule {}

/**
 * The PostgreSQL connection pool: `DATABASE_URL`, or the embedded server started on demand; and,
 * with DATABASE_READ_URL, a replica the API's reads may go to (Reads).
 * `entities` is the schema, which the app's composition root lists (src/entities.ts).
 */
@Global()
@Module({})
export class DatabaseModule {
  /**
   * `readReplica`: whether DATABASE_READ_URL is set; only then does every request pass the read
   * scope's interceptor (a global interceptor costs each request even when it does nothing).
   */
  static forRoot(entities: Entities, { readReplica }: { readReplica: boolean }): DynamicModule {
    // Filled in by useFactory, which Nest runs before dataSourceFactory (only the former is injected).
    const migrationContext: MigrationContext = {};
    let poolMode: DatabasePoolMode = 'session';
    return {
      module: DatabaseModule,
      imports: [
        TypeOrmModule.forRootAsync({
          imports: [EmbeddedPostgresModule],
          inject: [AppConfig, EmbeddedPostgres],
          useFactory: async (config: AppConfig, embedded: EmbeddedPostgres) => {
            migrationContext.dataEncryptionKey = () => config.deliverability.encryptionKey;
            poolMode = config.databasePoolMode;
            return {
              ...dataSourceOptions(config.databaseUrl ?? (await embedded.start()), entities, config.databasePoolSize),
              // A server that is down may come up within the retries; a wrong one will not.
              toRetry: (error: unknown) => !(error instanceof ConfigurationError),
            };
          },
          dataSourceFactory: async (options) => {
            const dataSource = await new DataSource(options!).initialize();
            setPoolMode(dataSource, poolMode);
            await refuseStandby(dataSource);
            await runMigrationsExclusively(dataSource, migrationContext);
            return dataSource;
          },
        }),
      ],
      providers: [
        Database,
        PreparedStatements,
        ReadReplica,
        RecentWrites,
        Reads,
        ...(readReplica ? [{ provide: APP_INTERCEPTOR, useClass: ReadScopeInterceptor }] : []),
      ],
      exports: [Database, PreparedStatements, ReadReplica, Reads, RecentWrites],
    };
  }
}

/**
 * DATABASE_URL pointed at a standby failed at the first statement that writes (a migration, the
 * queue's index) with "cannot execute … in a read-only transaction": said plainly instead.
 */
async function refuseStandby(dataSource: DataSource): Promise<void> {
  const [{ standby }]: { standby: boolean }[] = await dataSource.query(`SELECT pg_is_in_recovery() AS standby`);
  if (!standby) return;
  await dataSource.destroy();
  throw new ConfigurationError(
    'DATABASE_URL names a standby (the server is in recovery): point it at the primary, and a streaming replica at DATABASE_READ_URL.',
  );
}
