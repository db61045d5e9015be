import { DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import { LoggerModule } from 'nestjs-pino';
import { AttachmentsModule } from './attachments/attachments.module';
import { AuthModule } from './auth/auth.module';
import { ProblemDetailsFilter } from './common/problem/problem-details.filter';
import { AppConfig } from './config/app-config';
import { ConfigModule } from './config/config.module';
import { DatabaseModule } from './database/database.module';
import { DeliveryModule } from './delivery/delivery.module';
import { QueueModule } from './queue/queue.module';
import { HealthModule } from './health/health.module';
import { MessagesModule } from './messages/messages.module';
import { MetricsModule } from './metrics/metrics.module';
import { RateLimitModule } from './rate-limit/rate-limit.module';
import { SenderModule } from './sender/sender.module';
import { WebhooksModule } from './webhooks/webhooks.module';

@Module({})
export class AppModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot(config),
        LoggerModule.forRoot({
          pinoHttp: {
            level: config.logLevel,
            // The id assigned by assignRequestId, which runs before everything else.
            genReqId: (request) => request.id,
            redact: ['req.headers.authorization', 'req.headers.cookie'],
            autoLogging: { ignore: (request) => request.url?.startsWith('/health') ?? false },
          },
        }),
        DatabaseModule,
        QueueModule,
        DeliveryModule.forRoot(config),
        AuthModule,
        // After AuthModule: its guard must have named the caller before requests are counted.
        RateLimitModule,
        MessagesModule,
        AttachmentsModule,
        SenderModule,
        WebhooksModule,
        HealthModule,
        MetricsModule,
      ],
      providers: [{ provide: APP_FILTER, useClass: ProblemDetailsFilter }],
    };
  }
}
