import { Module } from '@nestjs/common';
import { MessageLifecycle } from './message-lifecycle';

/**
 * The message lifecycle, for the modules whose events change statuses (sender, delivery). Its
 * StatusChangeOutbox comes from the global module that implements it (WebhookQueueModule).
 */
@Module({ providers: [MessageLifecycle], exports: [MessageLifecycle] })
export class MessageLifecycleModule {}
