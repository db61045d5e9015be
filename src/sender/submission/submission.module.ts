import { Module } from '@nestjs/common';
import { AuthModule } from '../../auth';
import { IntakeModule } from '../intake/intake.module';
import { RateLimitModule } from '../../auth';
import { SubmissionLimits } from './submission-limits';
import { SubmissionSmtpServer } from './submission-smtp.server';
import { SubmitMessageUseCase } from './submit-message.use-case';

/** SMTP submission (docs/api.md#smtp-submission): the SMTP way in to the intake, beside the REST one. */
@Module({
  imports: [AuthModule, IntakeModule, RateLimitModule],
  providers: [
    SubmitMessageUseCase,
    SubmissionSmtpServer,
    { provide: SubmissionLimits, useValue: new SubmissionLimits() },
  ],
})
export class SubmissionModule {}
