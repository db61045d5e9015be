import { Module } from '@nestjs/common';
import { IntakeModule } from './intake/intake.module';
import { RateLimitModule } from '../auth';
import { MaxRecipientsRule } from './dto/max-recipients.rule';
import { SenderController } from './sender.controller';

/** POST /sender/send and /sender/send/batch: the REST ways in to the intake. */
@Module({
  imports: [IntakeModule, RateLimitModule],
  controllers: [SenderController],
  providers: [MaxRecipientsRule],
})
export class SenderModule {}
