import { Module } from '@nestjs/common';
import { MessageCountsCompactor } from './message-counts.compactor';
import { MessageCountsRepository } from './message-counts.repository';
import { MessagesController } from './messages.controller';
import { MessagesRepository } from './messages.repository';
import { MessagesService } from './messages.service';

@Module({
  controllers: [MessagesController],
  providers: [MessagesService, MessagesRepository, MessageCountsRepository, MessageCountsCompactor],
  exports: [MessagesRepository],
})
export class MessagesModule {}
