import { Module } from '@nestjs/common';
import { AttachmentsModule } from '../../messages/attachments/attachments.module';
import { IdempotencyModule } from '../idempotency/idempotency.module';
import { MessageLifecycleModule } from '../../messages/lifecycle/message-lifecycle.module';
import { SuppressionsModule } from '../../deliverability/suppressions/suppressions.module';
import { MessageIntake } from './message-intake';

/** Where every way in (the REST API, batches, SMTP submission) hands over a message to send. */
@Module({
  imports: [AttachmentsModule, IdempotencyModule, MessageLifecycleModule, SuppressionsModule],
  providers: [MessageIntake],
  exports: [MessageIntake],
})
export class IntakeModule {}
