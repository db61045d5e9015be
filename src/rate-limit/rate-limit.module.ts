import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { ThrottlerModule } from '@nestjs/throttler';
import { AppConfig } from '../config/app-config';
import { PreparedStatements } from '../database/prepared-statements';
import { MessageBudget } from './message-budget';
import { PostgresThrottlerStorage } from './postgres-throttler.storage';
import { RATE_LIMIT_THROTTLER, RATE_LIMIT_WINDOW_MS } from './rate-limit.window';
import { UserThrottlerGuard } from './user-throttler.guard';

/** Import after AuthModule: global guards run in the order they are registered. */
@Module({
  imports: [
    ThrottlerModule.forRootAsync({
      inject: [AppConfig, PreparedStatements],
      useFactory: (config: AppConfig, statements: PreparedStatements) => ({
        throttlers: [{ name: RATE_LIMIT_THROTTLER, ttl: RATE_LIMIT_WINDOW_MS, limit: config.limits.requestsPerMinute }],
        storage: new PostgresThrottlerStorage(statements),
      }),
    }),
  ],
  providers: [{ provide: APP_GUARD, useClass: UserThrottlerGuard }, MessageBudget],
  exports: [MessageBudget],
})
export class RateLimitModule {}
