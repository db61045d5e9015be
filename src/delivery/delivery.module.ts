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
import { RelaySkips } from './mailer/relay-skips';
import { mailerOptionsFor } from './mailer/relay-transports';
import { DirectMailer } from './direct/direct.mailer';
import { trustOf } from './direct/direct-trust';
import { MtaStsPolicies } from './direct/mta-sts-policies';
import { MtaStsSource } from './direct/mta-sts-source';
import { SITE_LIMITS_PROVIDERS } from './direct/site-limits.providers';
import { Clock } from '../platform/clock';
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
    const { relays, concurrency, direct } = config.delivery;
    const mailer: Provider = {
      provide: Mailer,
      useClass: direct ? DirectMailer : relays.length > 0 ? SmtpMailer : OutboxMailer,
    };
    // Direct delivery's parts (docs/delivery-and-deliverability.md#direct-delivery): per-site limits
    // kept in PostgreSQL across workers, and MTA-STS policies fetched through DNS_SERVERS.
    const directParts: Provider[] = direct
      ? [
          ...SITE_LIMITS_PROVIDERS,
          {
            provide: MtaStsSource,
            useFactory: () =>
              new MtaStsPolicies({ dnsServers: config.deliverability.dnsServers, trust: trustOf(direct) }),
          },
        ]
      : [];
    // Per process: which relays failed lately (docs/delivery-and-deliverability.md#relays-and-failover).
    const relaySkips: Provider = {
      provide: RelaySkips,
      inject: [Clock],
      useFactory: (clock: Clock) => new RelaySkips(clock),
    };
    return {
      module: DeliveryModule,
      imports: [
        MessageLifecycleModule,
        SuppressionsModule,
        UnsubscribeModule,
        // For the VERP envelope senders.
        BouncesModule,
        DomainsModule,
        // One pooled transport per relay of SMTP_URL, behind the Mailer port (SmtpMailer).
        ...(relays.length > 0 ? [MailerModule.forRoot(mailerOptionsFor(relays, concurrency))] : []),
      ],
      providers: [
        Clock,
        relaySkips,
        ...directParts,
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
