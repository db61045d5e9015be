import { Module } from '@nestjs/common';
import { DeliverableContentRepository } from '../deliverable-content.repository';
import { MessageLifecycle } from './message-lifecycle.repository';

/**
 * The message lifecycle, for the modules whose events change statuses (intake, delivery, a
 * message's cancel), and what delivery reads of the messages it claims.
 */
@Module({
  providers: [MessageLifecycle, DeliverableContentRepository],
  exports: [MessageLifecycle, DeliverableContentRepository],
})
export class MessageLifecycleModule {}
