import { Injectable } from '@nestjs/common';
import { AppConfig } from '../platform/config/app-config';
import { RetentionTask } from '../platform/retention-task';
import { MembersRepository } from './members/members.repository';
import { PasswordResetsRepository } from './password-reset/password-resets.repository';
import { SessionsRepository } from './sessions/sessions.repository';

/** Rows per statement: small, so that no lock is held for long. */
const BATCH = 1_000;

/** What one sweep forgot. */
export interface SweepCounts {
  sessions: number;
  invitations: number;
  passwordResets: number;
}

/**
 * Forgets what can no longer be used (docs/teams.md#what-is-forgotten): ended sessions, the tokens
 * of expired invitations, expired password resets. Each is refused already by its own check; this
 * keeps the tables from growing with them, and keeps no hash longer than it is useful. Run by
 * worker processes (and ROLE=all) whatever MESSAGE_RETENTION_DAYS says, at start and every 10 minutes.
 */
@Injectable()
export class ExpiredTokensSweep extends RetentionTask {
  protected readonly what = 'ended sessions and expired tokens';

  constructor(
    private readonly sessions: SessionsRepository,
    private readonly members: MembersRepository,
    private readonly resets: PasswordResetsRepository,
    config: AppConfig,
  ) {
    super(config);
  }

  protected override runs(): boolean {
    return this.config.role !== 'api';
  }

  async purge(): Promise<number> {
    const counts = await this.sweep();
    return counts.sessions + counts.invitations + counts.passwordResets;
  }

  /** One sweep, in batches until each kind is done or the process stops. */
  async sweep(): Promise<SweepCounts> {
    const lifetimes = {
      idleMinutes: this.config.teams.sessionIdleMinutes,
      maxHours: this.config.teams.sessionMaxHours,
    };
    return {
      sessions: await this.inBatches(BATCH, (limit) => this.sessions.forgetEnded(lifetimes, limit)),
      invitations: await this.inBatches(BATCH, (limit) => this.members.forgetExpiredInvitations(limit)),
      passwordResets: await this.inBatches(BATCH, (limit) => this.resets.forgetExpired(limit)),
    };
  }
}
