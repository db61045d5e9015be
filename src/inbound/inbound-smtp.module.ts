import { Module } from '@nestjs/common';
import { BouncesModule } from '../deliverability';
import { UnsubscribeModule } from '../deliverability';
import { MessagesModule } from '../messages';
import { InboundLimits } from './inbound-limits';
import { InboundRoutes } from './inbound-routes';
import { InboundSmtpListener } from './inbound-smtp.listener';
import { InboundModule } from './inbound.module';

/**
 * The inbound SMTP listener (docs/delivery-and-deliverability.md, docs/inbound.md): it routes each recipient to what takes it, a bounce or
 * complaint report (deliverability), an unsubscribe mail, or a user's receiving domain (InboundModule).
 */
@Module({
  imports: [InboundModule, BouncesModule, MessagesModule, UnsubscribeModule],
  providers: [InboundRoutes, InboundSmtpListener, { provide: InboundLimits, useValue: new InboundLimits() }],
})
export class InboundSmtpModule {}
