import { Module } from '@nestjs/common';
import { MessageLifecycle } from './message-lifecycle.repository';

/** The message lifecycle, for the modules whose events change statuses (intake, delivery, a message's cancel). */
@Module({ providers: [MessageLifecycle], exports: [MessageLifecycle] })
export class MessageLifecycleModule {}
