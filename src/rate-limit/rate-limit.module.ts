import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { ThrottlerModule } from '@nestjs/throttler';
import { DataSource } from 'typeorm';
import { AppConfig } from '../config/app-config';
import { PostgresThrottlerStorage } from './postgres-throttler.storage';
import { UserThrottlerGuard } from './user-throttler.guard';

/** Import after AuthModule: global guards run in the order they are registered. */
@Module({
  imports: [
    ThrottlerModule.forRootAsync({
      inject: [AppConfig, DataSource],
      useFactory: (config: AppConfig, dataSource: DataSource) => ({
        throttlers: [{ name: 'default', ttl: 60_000, limit: config.limits.requestsPerMinute }],
        storage: new PostgresThrottlerStorage(dataSource),
      }),
    }),
  ],
  providers: [{ provide: APP_GUARD, useClass: UserThrottlerGuard }],
})
export class RateLimitModule {}
