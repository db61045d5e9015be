import { Module } from '@nestjs/common';
import { SuppressionList } from './suppression-list.repository';
import { SuppressionsController } from './suppressions.controller';
import { SuppressionsRepository } from './suppressions.repository';
import { SuppressionsService } from './suppressions.service';

/**
 * The per-user suppression list: its endpoints, the look-up delivery makes, and SuppressionsRepository,
 * the one writer of its entries, for the rooms that add them (unsubscribe, bounces, delivery).
 */
@Module({
  controllers: [SuppressionsController],
  providers: [SuppressionsRepository, SuppressionsService, SuppressionList],
  exports: [SuppressionList, SuppressionsRepository],
})
export class SuppressionsModule {}
