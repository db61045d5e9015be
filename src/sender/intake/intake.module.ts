import { Module } from '@nestjs/common';
import { AttachmentsModule } from '../../messages';
import { IdempotencyModule } from '../idempotency/idempotency.module';
import { MessageLifecycleModule } from '../../messages';
import { SuppressionsModule } from '../../deliverability';
import { MessageIntake } from './message-intake';

/** Where every way in (the REST API, batches, SMTP submission) hands over a message to send. */
@Module({
  imports: [AttachmentsModule, IdempotencyModule, MessageLifecycleModule, SuppressionsModule],
  providers: [MessageIntake],
  exports: [MessageIntake],
})
export class IntakeModule {}
