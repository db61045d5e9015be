import { Module } from '@nestjs/common';
import { DomainsModule } from '../deliverability';
import { MessagesModule } from '../messages';
import { InboundController } from './inbound.controller';
import { InboundMailLimits } from './inbound-mail-limits';
import { InboundMailboxes } from './inbound-mailboxes';
import { InboundQuota } from './inbound-quota';
import { InboundRepository } from './inbound.repository';
import { InboundRetention } from './inbound-retention';
import { InboundService } from './inbound.service';
import { MailVerdicts } from './mail-verdicts';
import { ReceiveInboundMailUseCase } from './receive-inbound-mail.use-case';
import { ReplyLinks } from './reply-links';

/**
 * Received mail (docs/inbound.md): which addresses are taken, reading, judging and storing a mail, the
 * list and its bytes, retention. The inbound SMTP listener (InboundSmtpModule) hands mail in here.
 */
@Module({
  imports: [DomainsModule, MessagesModule],
  controllers: [InboundController],
  providers: [
    { provide: InboundMailLimits, useValue: new InboundMailLimits() },
    InboundMailboxes,
    InboundQuota,
    InboundRepository,
    InboundRetention,
    InboundService,
    MailVerdicts,
    ReceiveInboundMailUseCase,
    ReplyLinks,
  ],
  exports: [InboundMailboxes, InboundQuota, ReceiveInboundMailUseCase, InboundMailLimits],
})
export class InboundModule {}
