import { Module } from '@nestjs/common';
import { AttachmentsModule } from './attachments/attachments.module';
import { CancelMessageUseCase } from './cancel-message.use-case';
import { MessageLifecycleModule } from './lifecycle/message-lifecycle.module';
import { MessageCountsCompactor } from './message-counts.compactor';
import { MessageCountsRepository } from './message-counts.repository';
import { MessageContentController } from './message-content.controller';
import { MessageContentRepository } from './message-content.repository';
import { MessageContentService } from './message-content.service';
import { MessageRetention } from './message-retention';
import { MessageUpkeepRepository } from './message-upkeep.repository';
import { MessageStatsController } from './message-stats.controller';
import { MessageStatsService } from './message-stats.service';
import { MessagesController } from './messages.controller';
import { MessagesRepository } from './messages.repository';
import { MessagesService } from './messages.service';
import { TokenRecipients } from './token-recipients.repository';

@Module({
  imports: [MessageLifecycleModule, AttachmentsModule],
  controllers: [MessagesController, MessageContentController, MessageStatsController],
  providers: [
    MessagesService,
    MessageContentService,
    MessageContentRepository,
    MessageStatsService,
    MessagesRepository,
    MessageCountsRepository,
    MessageUpkeepRepository,
    MessageCountsCompactor,
    MessageRetention,
    CancelMessageUseCase,
    TokenRecipients,
  ],
  exports: [MessagesRepository, TokenRecipients],
})
export class MessagesModule {}
