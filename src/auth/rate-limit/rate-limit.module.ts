import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { ThrottlerModule } from '@nestjs/throttler';
import { LargeBodyTurnGuard } from '../../platform/http/large-body-turn.guard';
import { AppConfig } from '../../platform/config/app-config';
import { MessageBudget } from './message-budget';
import { PostgresThrottlerStorage } from './postgres-throttler.storage';
import { RateLimitCountersRepository } from './rate-limit-counters.repository';
import { RATE_LIMIT_THROTTLER, RATE_LIMIT_WINDOW_MS } from './rate-limit.window';
import { UserThrottlerGuard } from './user-throttler.guard';

/** The counters, one instance for the guard and MessageBudget, so that both see what it has not written yet. */
@Module({ providers: [RateLimitCountersRepository, PostgresThrottlerStorage], exports: [PostgresThrottlerStorage] })
class RequestCountersModule {}

/**
 * Import after AuthModule: global guards run in the order they are registered. A large body
 * waits for its turn first, so that the count is made when the body is about to be read.
 */
@Module({
  imports: [
    RequestCountersModule,
    ThrottlerModule.forRootAsync({
      imports: [RequestCountersModule],
      inject: [AppConfig, PostgresThrottlerStorage],
      useFactory: (config: AppConfig, storage: PostgresThrottlerStorage) => ({
        throttlers: [{ name: RATE_LIMIT_THROTTLER, ttl: RATE_LIMIT_WINDOW_MS, limit: config.limits.requestsPerMinute }],
        storage,
      }),
    }),
  ],
  providers: [
    { provide: APP_GUARD, useClass: LargeBodyTurnGuard },
    { provide: APP_GUARD, useClass: UserThrottlerGuard },
    MessageBudget,
  ],
  exports: [MessageBudget],
})
export class RateLimitModule {}
