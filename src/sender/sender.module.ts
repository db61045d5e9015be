import { Module } from '@nestjs/common';
import { IntakeModule } from '../intake/intake.module';
import { MaxRecipientsRule } from './dto/max-recipients.rule';
import { SenderController } from './sender.controller';

/** POST /sender/send: the REST way in to the intake. */
@Module({
  imports: [IntakeModule],
  controllers: [SenderController],
  providers: [MaxRecipientsRule],
})
export class SenderModule {}
