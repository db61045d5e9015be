import { DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import { LoggerModule } from 'nestjs-pino';
import { AttachmentsModule } from './messages';
import { AuditModule } from './auth';
import { AuthModule } from './auth';
import { BouncesModule } from './deliverability';
import { BodyReadDeadline } from './platform/http/body-limit';
import { HttpDrain } from './platform/http/http-drain';
import { ProblemDetailsFilter } from './platform/problem/problem-details.filter';
import { AppConfig } from './platform/config/app-config';
import { ConfigModule } from './platform/config/config.module';
import { DatabaseModule } from './platform/database/database.module';
import { DeliveryModule } from './delivery';
import { ENTITIES } from './entities';
import { QueueModule } from './platform/queue/queue.module';
import { EventsModule } from './webhooks';
import { loggedRequest, requestLogProps } from './request-log';
import { HealthModule } from './platform/health/health.module';
import { MessagesModule } from './messages';
import { MetricsModule } from './platform/metrics/metrics.module';
import { RateLimitModule } from './auth';
import { SenderModule } from './sender';
import { SubmissionModule } from './sender';
import { SystemMailModule } from './sender';
import { SuppressionsModule } from './deliverability';
import { UnsubscribeModule } from './deliverability';
import { DomainsModule } from './deliverability';
import { InboundModule } from './inbound';
import { InboundSmtpModule } from './inbound';
import { WebhooksModule } from './webhooks';

@Module({})
class BodyReadModule {}

@Module({})
export class AppModule {
  static forRoot(config: AppConfig, drain: HttpDrain): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot(config),
        // What the readers of bodies in platform/http take of the configuration, for every module.
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
        DatabaseModule.forRoot(ENTITIES, { readReplica: config.databaseReadUrl !== undefined }),
        QueueModule,
        EventsModule,
        DeliveryModule.forRoot(config),
        AuthModule,
        AuditModule,
        // After AuthModule: its guard must have named the caller before requests are counted.
        RateLimitModule,
        MessagesModule,
        AttachmentsModule,
        SenderModule,
        // auth's SystemMail port (invitation mail), implemented by the intake.
        SystemMailModule,
        // The SMTP submission server (SUBMISSION_SMTP_PORT, API processes).
        SubmissionModule,
        WebhooksModule,
        SuppressionsModule,
        UnsubscribeModule,
        BouncesModule,
        DomainsModule,
        InboundModule,
        // The inbound SMTP listener (INBOUND_SMTP_PORT, worker processes).
        InboundSmtpModule,
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
