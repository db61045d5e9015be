import { Module } from '@nestjs/common';
import { DeliveryQueue } from './delivery-queue';

/** The producer side alone, for the modules that queue deliveries (sender) without running them. */
@Module({ providers: [DeliveryQueue], exports: [DeliveryQueue] })
export class DeliveryQueueModule {}
