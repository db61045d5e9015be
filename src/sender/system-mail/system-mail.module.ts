import { Global, Module } from '@nestjs/common';
import { SystemMail } from '../../auth';
import { IntakeModule } from '../intake/intake.module';
import { IntakeSystemMail } from './intake-system-mail';

/** Provides auth's SystemMail port to the whole application (auth may not import sender). */
@Global()
@Module({
  imports: [IntakeModule],
  providers: [{ provide: SystemMail, useClass: IntakeSystemMail }],
  exports: [SystemMail],
})
export class SystemMailModule {}
