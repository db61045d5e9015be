import { Module } from '@nestjs/common';
import { AttachmentsModule } from '../attachments/attachments.module';
import { IdempotencyModule } from '../idempotency/idempotency.module';
import { MessagesModule } from '../messages/messages.module';
import { MaxRecipientsRule } from './dto/max-recipients.rule';
import { SenderController } from './sender.controller';
import { SendBatcher } from './send-batcher';
import { SendMessageUseCase } from './send-message.use-case';

@Module({
  imports: [MessagesModule, AttachmentsModule, IdempotencyModule],
  controllers: [SenderController],
  providers: [SendMessageUseCase, SendBatcher, MaxRecipientsRule],
})
export class SenderModule {}
