import { Injectable } from '@nestjs/common';
import { SYSTEM_ACCOUNT_ID, SystemMail, type SystemMessage } from '../../auth';
import { MessageIntake } from '../intake/message-intake';

/** auth's own mail (invitations, password resets) accepted by the intake as a message of the system account, delivered like any. */
@Injectable()
export class IntakeSystemMail extends SystemMail {
  constructor(private readonly intake: MessageIntake) {
    super();
  }

  async send(message: SystemMessage): Promise<void> {
    await this.intake.accept(SYSTEM_ACCOUNT_ID, {
      sender: message.from,
      to: [message.to],
      subject: message.subject,
      text: message.text,
    });
  }
}
