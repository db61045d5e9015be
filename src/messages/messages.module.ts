import { Module } from '@nestjs/common';
import { CancelMessageUseCase } from './cancel-message.use-case';
import { MessageLifecycleModule } from './lifecycle/message-lifecycle.module';
import { MessageCountsCompactor } from './message-counts.compactor';
import { MessageCountsRepository } from './message-counts.repository';
import { MessageRetention } from './message-retention';
import { MessagesController } from './messages.controller';
import { MessagesRepository } from './messages.repository';
import { MessagesService } from './messages.service';
import { TokenRecipients } from './token-recipients';

@Module({
  imports: [MessageLifecycleModule],
  controllers: [MessagesController],
  providers: [
    MessagesService,
    MessagesRepository,
    MessageCountsRepository,
    MessageCountsCompactor,
    MessageRetention,
    CancelMessageUseCase,
    TokenRecipients,
  ],
  exports: [MessagesRepository, TokenRecipients],
})
export class MessagesModule {}
