import { Module } from '@nestjs/common';
import { MessageLifecycleModule } from '../../messages';
import { MessagesModule } from '../../messages';
import { SuppressionsModule } from '../suppressions/suppressions.module';
import { ApplyReportsUseCase } from './apply-reports.use-case';
import { AppliedReportsRepository } from './applied-reports.repository';
import { VerpAddresses } from './verp-addresses';

/**
 * The bounce and complaint loop (docs/delivery-and-deliverability.md): the VERP addresses delivery writes and what the reports
 * mailed to them do. The inbound SMTP listener (src/inbound) reads the reports and hands them here.
 */
@Module({
  imports: [MessageLifecycleModule, MessagesModule, SuppressionsModule],
  providers: [VerpAddresses, AppliedReportsRepository, ApplyReportsUseCase],
  exports: [VerpAddresses, ApplyReportsUseCase],
})
export class BouncesModule {}
