import { Module } from '@nestjs/common';
import { SuppressionList } from './suppression-list';
import { SuppressionsController } from './suppressions.controller';
import { SuppressionsRepository } from './suppressions.repository';
import { SuppressionsService } from './suppressions.service';

/** The per-user suppression list: its endpoints, and the look-up delivery makes. */
@Module({
  controllers: [SuppressionsController],
  providers: [SuppressionsRepository, SuppressionsService, SuppressionList],
  exports: [SuppressionList],
})
export class SuppressionsModule {}
