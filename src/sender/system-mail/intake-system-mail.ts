import { Injectable } from '@nestjs/common';
import { SystemMail, type SystemMessage } from '../../auth';
import { MessageIntake } from '../intake/message-intake';

/** auth's own mail (invitations) accepted by the intake as any message of the account, delivered like one. */
@Injectable()
export class IntakeSystemMail extends SystemMail {
  constructor(private readonly intake: MessageIntake) {
    super();
  }

  async send(accountId: string, message: SystemMessage): Promise<void> {
    await this.intake.accept(accountId, {
      sender: message.from,
      to: [message.to],
      subject: message.subject,
      text: message.text,
    });
  }
}
