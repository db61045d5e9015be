import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { ThrottlerModule } from '@nestjs/throttler';
import { AppConfig } from '../config/app-config';
import { PreparedStatements } from '../database/prepared-statements';
import { PostgresThrottlerStorage } from './postgres-throttler.storage';
import { UserThrottlerGuard } from './user-throttler.guard';

/** Import after AuthModule: global guards run in the order they are registered. */
@Module({
  imports: [
    ThrottlerModule.forRootAsync({
      inject: [AppConfig, PreparedStatements],
      useFactory: (config: AppConfig, statements: PreparedStatements) => ({
        throttlers: [{ name: 'default', ttl: 60_000, limit: config.limits.requestsPerMinute }],
        storage: new PostgresThrottlerStorage(statements),
      }),
    }),
  ],
  providers: [{ provide: APP_GUARD, useClass: UserThrottlerGuard }],
})
export class RateLimitModule {}
