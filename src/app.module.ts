import { DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import { LoggerModule } from 'nestjs-pino';
import { AttachmentsModule } from './messages/attachments/attachments.module';
import { AuthModule } from './auth/auth.module';
import { BouncesModule } from './deliverability/bounces/bounces.module';
import { BodyReadDeadline } from './platform/http/body-limit';
import { HttpDrain } from './platform/http/http-drain';
import { ProblemDetailsFilter } from './platform/problem/problem-details.filter';
import { AppConfig } from './platform/config/app-config';
import { ConfigModule } from './platform/config/config.module';
import { DatabaseModule } from './platform/database/database.module';
import { DeliveryModule } from './delivery/delivery.module';
import { ENTITIES } from './entities';
import { QueueModule } from './platform/queue/queue.module';
import { EventsModule } from './webhooks/events/events.module';
import { loggedRequest, requestLogProps } from './request-log';
import { HealthModule } from './platform/health/health.module';
import { MessagesModule } from './messages/messages.module';
import { MetricsModule } from './platform/metrics/metrics.module';
import { RateLimitModule } from './auth/rate-limit/rate-limit.module';
import { SenderModule } from './sender/sender.module';
import { SubmissionModule } from './sender/submission/submission.module';
import { SuppressionsModule } from './deliverability/suppressions/suppressions.module';
import { UnsubscribeModule } from './deliverability/unsubscribe/unsubscribe.module';
import { DomainsModule } from './deliverability/domains/domains.module';
import { InboundModule } from './inbound/inbound.module';
import { WebhooksModule } from './webhooks/webhooks.module';

@Module({})
class BodyReadModule {}

@Module({})
export class AppModule {
  static forRoot(config: AppConfig, drain: HttpDrain): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot(config),
        // What the readers of bodies in common/ take of the configuration, for every module.
        {
          module: BodyReadModule,
          global: true,
          providers: [{ provide: BodyReadDeadline, useValue: new BodyReadDeadline(config.limits.bodyReadMs) }],
          exports: [BodyReadDeadline],
        },
        LoggerModule.forRoot({
          pinoHttp: {
            level: config.logLevel,
            // The id assigned by assignRequestId, which runs before everything else.
            genReqId: (request) => request.id,
            serializers: {
              req: loggedRequest,
              res: (response: { statusCode: number }) => ({ statusCode: response.statusCode }),
            },
            // Read again when the response is logged, by which time the guard has named the caller;
            // the client's address, not its proxy's (TRUST_PROXY).
            customProps: (request) => requestLogProps(request, config.trustedProxies),
            autoLogging: { ignore: (request) => request.url?.startsWith('/health') ?? false },
          },
        }),
        DatabaseModule.forRoot(ENTITIES),
        QueueModule,
        EventsModule,
        DeliveryModule.forRoot(config),
        AuthModule,
        // After AuthModule: its guard must have named the caller before requests are counted.
        RateLimitModule,
        MessagesModule,
        AttachmentsModule,
        SenderModule,
        // The SMTP submission server (SUBMISSION_SMTP_PORT, API processes).
        SubmissionModule,
        WebhooksModule,
        SuppressionsModule,
        UnsubscribeModule,
        // The inbound SMTP listener (INBOUND_SMTP_PORT, worker processes).
        BouncesModule,
        DomainsModule,
        InboundModule,
        HealthModule,
        MetricsModule,
      ],
      providers: [
        { provide: APP_FILTER, useClass: ProblemDetailsFilter },
        { provide: HttpDrain, useValue: drain },
      ],
    };
  }
}
