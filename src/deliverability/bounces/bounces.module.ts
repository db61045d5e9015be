import { Module } from '@nestjs/common';
import { InboundModule } from '../../inbound/inbound.module';
import { MessageLifecycleModule } from '../../messages/lifecycle/message-lifecycle.module';
import { MessagesModule } from '../../messages/messages.module';
import { SuppressionsModule } from '../suppressions/suppressions.module';
import { UnsubscribeModule } from '../unsubscribe/unsubscribe.module';
import { ApplyReportsUseCase } from './apply-reports.use-case';
import { AppliedReportsRepository } from './applied-reports.repository';
import { InboundLimits } from '../../inbound/inbound-limits';
import { InboundRoutes } from '../../inbound/inbound-routes';
import { InboundSmtpListener } from '../../inbound/inbound-smtp.listener';
import { VerpAddresses } from './verp-addresses';

/**
 * The bounce and complaint loop (SPEC §9): the inbound SMTP listener and what its reports do. The
 * listener also takes mail for users' receiving domains, which it hands to src/inbound (SPEC §13).
 */
@Module({
  imports: [InboundModule, MessageLifecycleModule, MessagesModule, SuppressionsModule, UnsubscribeModule],
  providers: [
    VerpAddresses,
    InboundRoutes,
    AppliedReportsRepository,
    ApplyReportsUseCase,
    InboundSmtpListener,
    { provide: InboundLimits, useValue: new InboundLimits() },
  ],
  exports: [VerpAddresses],
})
export class BouncesModule {}
