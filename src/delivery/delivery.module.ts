import { DynamicModule, Module, Provider } from '@nestjs/common';
import { MailerModule } from '@nestjs-modules/mailer';
import { AppConfig } from '../platform/config/app-config';
import { DeliverMessageUseCase } from './deliver-message.use-case';
import { MessageLifecycleModule } from '../messages';
import { DeliveryClaim } from './delivery-claim';
import { DeliveryHandOver } from './delivery-hand-over';
import { DeliveryRecorder } from './delivery-recorder';
import { DeliveryRepository } from './delivery.repository';
import { DeliveryWorker } from './delivery.worker';
import { Mailer } from './mailer/mailer';
import { OutboxMailer } from './mailer/outbox.mailer';
import { SmtpMailer } from './mailer/smtp.mailer';
import { SuppressionsModule } from '../deliverability';
import { UnsubscribeModule } from '../deliverability';
import { BouncesModule } from '../deliverability';
import { DomainsModule } from '../deliverability';

/**
 * Delivery: the worker and the mailer chosen by SMTP_URL. Not global on purpose: Nest destroys
 * global modules last, so the worker (distance 1) drains before the mailer's pool (global) closes.
 */
@Module({})
export class DeliveryModule {
  static forRoot(config: AppConfig): DynamicModule {
    const { smtpUrl, concurrency } = config.delivery;
    const mailer: Provider = { provide: Mailer, useClass: smtpUrl ? SmtpMailer : OutboxMailer };
    return {
      module: DeliveryModule,
      imports: [
        MessageLifecycleModule,
        SuppressionsModule,
        UnsubscribeModule,
        // For the VERP envelope senders.
        BouncesModule,
        DomainsModule,
        ...(smtpUrl
          ? [
              MailerModule.forRoot({
                // A send gives up within half the default lease (120 s), so that its job is not taken
                // over while it still runs.
                sendTimeout: 60_000,
                transport: {
                  url: smtpUrl,
                  pool: true,
                  maxConnections: concurrency,
                  // nodemailer's default (100) reconnects every few seconds under load.
                  maxMessages: 10_000,
                  // Well under the job lease, so a stuck server costs an attempt, not the lease.
                  connectionTimeout: 10_000,
                  greetingTimeout: 10_000,
                  socketTimeout: 30_000,
                },
              }),
            ]
          : []),
      ],
      providers: [
        mailer,
        DeliveryRepository,
        DeliveryRecorder,
        DeliveryClaim,
        DeliveryHandOver,
        DeliverMessageUseCase,
        DeliveryWorker,
      ],
    };
  }
}
