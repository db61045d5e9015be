import { Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import { v7 as uuidv7 } from 'uuid';
import { AppConfig } from '../../platform/config/app-config';
import { countedAddress } from '../../platform/http/client-address';
import { NotFoundError } from '../../platform/problem/problem.errors';
import { AuditLog } from '../audit/audit-log';
import { memberCaller } from '../members/member-caller';
import { ACCOUNTS_PER_ADDRESS, type Member } from '../members/members.repository';
import { PasswordHasher } from '../members/password-hasher';
import { SystemMail } from '../members/system-mail';
import { hashOfToken, newOpaqueToken } from '../opaque-token';
import { PasswordResetThrottle } from './password-reset-throttle';
import { PasswordResetsRepository } from './password-resets.repository';

/** A reset link is valid this long (docs/teams.md#password-reset). */
export const RESET_VALID_MINUTES = 30;

/**
 * Password resets (docs/teams.md#password-reset). A request is answered before anything is looked
 * up: the links are made and mailed after the answer, so that a member's address and an unknown
 * one are answered alike and in the same time. That work is waited for at shutdown.
 */
@Injectable()
export class PasswordResets implements OnModuleDestroy {
  private readonly logger = new Logger(PasswordResets.name);
  private readonly mailing = new Set<Promise<void>>();

  constructor(
    private readonly resets: PasswordResetsRepository,
    private readonly throttle: PasswordResetThrottle,
    private readonly passwords: PasswordHasher,
    private readonly mail: SystemMail,
    private readonly audit: AuditLog,
    private readonly config: AppConfig,
  ) {}

  /**
   * POST /password-reset: counted, then the links are mailed in the background. Past the allowance
   * nothing is mailed, and the answer is the same 202: the contract answers a reset request alike
   * in every case, so that it tells nothing about the address.
   */
  async request(email: string, clientAddress: string): Promise<void> {
    if (!(await this.throttle.take(email, countedAddress(clientAddress)))) return;
    const work: Promise<void> = this.mailLinks(email)
      .catch((err: unknown) => this.logger.warn({ err }, 'Could not mail a password reset'))
      .finally(() => this.mailing.delete(work));
    this.mailing.add(work);
  }

  /** Settles once the links of every request made so far are mailed (or failed): shutdown, and tests. */
  async settled(): Promise<void> {
    while (this.mailing.size > 0) await Promise.all([...this.mailing]);
  }

  async onModuleDestroy(): Promise<void> {
    await this.settled();
  }

  /** POST /password-reset/{token}: the new password, and every session of the member ends. */
  async redeem(token: string, password: string, clientAddress: string): Promise<void> {
    const hash = hashOfToken(token);
    // Hashed before the look-up, so that a valid token's answer takes no longer than a forged one's.
    const passwordHash = await this.passwords.hash(password);
    const member =
      hash &&
      (await this.resets.redeem(hash, passwordHash, (manager, m) =>
        this.audit.record(manager, {
          by: memberCaller(m, clientAddress),
          action: 'member.password_reset',
          target: { type: 'member', id: m.id },
          detail: { email: m.email },
        }),
      ));
    if (!member) throw new NotFoundError('That password reset (used, expired or never made)');
  }

  /** One link per account where the address is an active member, each resetting that account's member only. */
  private async mailLinks(email: string): Promise<void> {
    for (const member of await this.resets.activeMembers(email, ACCOUNTS_PER_ADDRESS)) await this.mailLink(member);
  }

  private async mailLink(member: Member): Promise<void> {
    const { token, hash } = newOpaqueToken();
    await this.resets.create(uuidv7(), member.id, hash, RESET_VALID_MINUTES);
    await this.mail.send({
      from: this.config.teams.systemMailFrom,
      to: member.email,
      subject: 'Reset your Mailroom password',
      text: [
        `Someone asked to reset the password of ${member.email} in the Mailroom account ${member.accountId}.`,
        '',
        `Choose a new password here, within ${RESET_VALID_MINUTES} minutes (the link works once;`,
        'every session of yours in this account ends when you do):',
        `${this.config.deliverability.publicUrl}/console/password-reset/${token}`,
        '',
        'If it was not you, ignore this mail: your password stays as it is.',
      ].join('\n'),
    });
  }
}
