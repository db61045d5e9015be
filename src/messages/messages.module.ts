import { Module } from '@nestjs/common';
import { MessageCountsFolder } from './message-counts.folder';
import { MessageCountsRepository } from './message-counts.repository';
import { MessagesController } from './messages.controller';
import { MessagesRepository } from './messages.repository';
import { MessagesService } from './messages.service';

@Module({
  controllers: [MessagesController],
  providers: [MessagesService, MessagesRepository, MessageCountsRepository, MessageCountsFolder],
  exports: [MessagesRepository],
})
export class MessagesModule {}
