import { Module } from '@nestjs/common';
import { MessagesModule } from '../../messages';
import { SuppressionsModule } from '../suppressions/suppressions.module';
import { UnsubscribeHeaders } from './unsubscribe-headers';
import { UnsubscribeController } from './unsubscribe.controller';
import { UnsubscribeService } from './unsubscribe.service';
import { UnsubscribeTokens } from './unsubscribe-tokens';

/**
 * One-click unsubscribe (docs/delivery-and-deliverability.md): the headers delivery writes, and the service that reads their
 * tokens, for the HTTP routes and the inbound mailto: address.
 */
@Module({
  imports: [MessagesModule, SuppressionsModule],
  controllers: [UnsubscribeController],
  providers: [UnsubscribeTokens, UnsubscribeService, UnsubscribeHeaders],
  exports: [UnsubscribeService, UnsubscribeTokens, UnsubscribeHeaders],
})
export class UnsubscribeModule {}
