import { DynamicModule, Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AppConfig } from '../config/app-config';
import { dataSourceOptions, Entities, runMigrationsExclusively } from './data-source-options';
import { Database } from './database';
import { EmbeddedPostgres } from './embedded-postgres';
import { PreparedStatements } from './prepared-statements';

@Module({
  providers: [
    { provide: EmbeddedPostgres, inject: [AppConfig], useFactory: (c: AppConfig) => new EmbeddedPostgres(c.dataDir) },
  ],
  exports: [EmbeddedPostgres],
})
class EmbeddedPostgresModule {}

/**
 * The one PostgreSQL connection pool: `DATABASE_URL`, or the embedded server started on demand.
 * `entities` is the schema, which the app's composition root lists (src/entities.ts).
 */
@Global()
@Module({})
export class DatabaseModule {
  static forRoot(entities: Entities): DynamicModule {
    return {
      module: DatabaseModule,
      imports: [
        TypeOrmModule.forRootAsync({
          imports: [EmbeddedPostgresModule],
          inject: [AppConfig, EmbeddedPostgres],
          useFactory: async (config: AppConfig, embedded: EmbeddedPostgres) =>
            dataSourceOptions(config.databaseUrl ?? (await embedded.start()), entities),
          dataSourceFactory: async (options) => {
            const dataSource = await new DataSource(options!).initialize();
            await runMigrationsExclusively(dataSource);
            return dataSource;
          },
        }),
      ],
      providers: [Database, PreparedStatements],
      exports: [Database, PreparedStatements],
    };
  }
}
