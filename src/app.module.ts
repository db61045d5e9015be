import { DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import { LoggerModule } from 'nestjs-pino';
import { AttachmentsModule } from './attachments/attachments.module';
import { AuthModule } from './auth/auth.module';
import { HttpDrain } from './common/http-drain';
import type { AuthUser } from './auth/current-user.decorator';
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
import { SuppressionsModule } from './suppressions/suppressions.module';
import { WebhooksModule } from './webhooks/webhooks.module';

@Module({})
export class AppModule {
  static forRoot(config: AppConfig, drain: HttpDrain): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot(config),
        LoggerModule.forRoot({
          pinoHttp: {
            level: config.logLevel,
            // The id assigned by assignRequestId, which runs before everything else.
            genReqId: (request) => request.id,
            // One short line per request: no headers (about 750 bytes each, credentials among them).
            serializers: {
              req: (request: { id: string; method: string; url: string }) => ({ id: request.id, method: request.method, url: request.url }),
              res: (response: { statusCode: number }) => ({ statusCode: response.statusCode }),
            },
            // Read again when the response is logged, by which time the guard has named the caller.
            customProps: (request) => ({ userId: (request as { user?: AuthUser }).user?.id }),
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
        SuppressionsModule,
        HealthModule,
        MetricsModule,
      ],
      providers: [{ provide: APP_FILTER, useClass: ProblemDetailsFilter }, { provide: HttpDrain, useValue: drain }],
    };
  }
}
