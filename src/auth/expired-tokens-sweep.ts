import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { AppConfig } from '../platform/config/app-config';
import { ScheduledTask } from '../platform/scheduled-task';
import { MembersRepository } from './members/members.repository';
import { PasswordResetsRepository } from './password-reset/password-resets.repository';
import { SessionsRepository } from './sessions/sessions.repository';

const EVERY_MS = 10 * 60_000;
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
 * keeps the tables from growing with them, and keeps no hash longer than it is useful. Run by the
 * processes that run the retention tasks (workers and ROLE=all), at start and every 10 minutes.
 */
@Injectable()
export class ExpiredTokensSweep implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(ExpiredTokensSweep.name);
  private readonly schedule = new ScheduledTask(() => this.sweepAndLog(), {
    everyMs: EVERY_MS,
    firstRun: 'at-start',
    onError: (err) => this.logger.warn({ err }, 'Could not forget expired sessions and tokens'),
  });

  constructor(
    private readonly sessions: SessionsRepository,
    private readonly members: MembersRepository,
    private readonly resets: PasswordResetsRepository,
    private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    if (this.config.role !== 'api') this.schedule.start();
  }

  async onModuleDestroy(): Promise<void> {
    await this.schedule.stop();
  }

  /** One sweep, in batches until each kind is done or the process stops. */
  async sweep(): Promise<SweepCounts> {
    const lifetimes = {
      idleMinutes: this.config.teams.sessionIdleMinutes,
      maxHours: this.config.teams.sessionMaxHours,
    };
    return {
      sessions: await this.inBatches((limit) => this.sessions.forgetEnded(lifetimes, limit)),
      invitations: await this.inBatches((limit) => this.members.forgetExpiredInvitations(limit)),
      passwordResets: await this.inBatches((limit) => this.resets.forgetExpired(limit)),
    };
  }

  private async inBatches(batch: (limit: number) => Promise<number>): Promise<number> {
    let total = 0;
    for (let n = BATCH; n === BATCH && !this.schedule.signal.aborted; total += n) n = await batch(BATCH);
    return total;
  }

  private async sweepAndLog(): Promise<void> {
    const counts = await this.sweep();
    if (counts.sessions + counts.invitations + counts.passwordResets > 0) {
      this.logger.log(counts, 'Forgot ended sessions, expired invitations’ tokens and expired password resets');
    }
  }
}
