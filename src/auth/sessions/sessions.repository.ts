import { Injectable } from '@nestjs/common';
import { Database } from '../../platform/database/database';
import type { MemberRole } from '../members/member-role';

const FOREIGN_KEY_VIOLATION = '23503';

/** A live session and the member it signs in, as read on every request that presents its cookie. */
export interface LiveSession {
  sessionId: string;
  memberId: string;
  accountId: string;
  email: string;
  role: MemberRole;
  /** Whether its last use is old enough to be written again (at most once a minute). */
  stale: boolean;
}

/** Lifetimes of a session, in the configured units (SESSION_IDLE_MINUTES, SESSION_MAX_HOURS). */
export interface SessionLifetimes {
  idleMinutes: number;
  maxHours: number;
}

/** Members' console sessions, kept by the SHA-256 of their cookie; a session ends with its member (cascade). */
@Injectable()
export class SessionsRepository {
  constructor(private readonly database: Database) {}

  /**
   * Starts a session, and forgets the member's ended ones, so that a member's sessions never pile up;
   * false when the member is gone (removed as it signed in), so that it gets no session.
   */
  async start(id: string, memberId: string, tokenHash: Buffer, lifetimes: SessionLifetimes): Promise<boolean> {
    try {
      await this.database.query(
        `WITH ended AS (
         DELETE FROM member_sessions WHERE member_id = $2
           AND (last_used_at <= clock_timestamp() - make_interval(mins => $4)
                OR created_at <= clock_timestamp() - make_interval(hours => $5))
       )
       INSERT INTO member_sessions (id, member_id, token_hash, created_at, last_used_at)
       VALUES ($1, $2, $3, date_trunc('milliseconds', clock_timestamp()), date_trunc('milliseconds', clock_timestamp()))`,
        [id, memberId, tokenHash, lifetimes.idleMinutes, lifetimes.maxHours],
      );
      return true;
    } catch (error) {
      if ((error as { code?: string }).code === FOREIGN_KEY_VIOLATION) return false;
      throw error;
    }
  }

  /**
   * The session of this hash, unless it has been unused or alive too long, or its member is gone:
   * read from the database on every request, so that an ended session is refused by every process at once.
   */
  async live(tokenHash: Buffer, lifetimes: SessionLifetimes): Promise<LiveSession | undefined> {
    const rows: LiveSession[] = await this.database.query(
      `SELECT s.id AS "sessionId", m.id AS "memberId", m.account_id AS "accountId", m.email, m.role,
              s.last_used_at < clock_timestamp() - interval '1 minute' AS stale
       FROM member_sessions s JOIN members m ON m.id = s.member_id
       WHERE s.token_hash = $1 AND m.status = 'active'
         AND s.last_used_at > clock_timestamp() - make_interval(mins => $2)
         AND s.created_at > clock_timestamp() - make_interval(hours => $3)`,
      [tokenHash, lifetimes.idleMinutes, lifetimes.maxHours],
    );
    return rows[0];
  }

  async touch(sessionId: string): Promise<void> {
    await this.database.query(
      `UPDATE member_sessions SET last_used_at = date_trunc('milliseconds', clock_timestamp()) WHERE id = $1`,
      [sessionId],
    );
  }

  async end(sessionId: string): Promise<void> {
    await this.database.query('DELETE FROM member_sessions WHERE id = $1', [sessionId]);
  }

  /** Forgets up to `limit` sessions that have ended, unused or alive too long (the periodic sweep); how many. */
  async forgetEnded(lifetimes: SessionLifetimes, limit: number): Promise<number> {
    return this.database.rowsChanged(
      `DELETE FROM member_sessions WHERE id IN (
         SELECT id FROM member_sessions
         WHERE last_used_at <= clock_timestamp() - make_interval(mins => $1)
            OR created_at <= clock_timestamp() - make_interval(hours => $2)
         LIMIT $3 FOR UPDATE SKIP LOCKED)`,
      [lifetimes.idleMinutes, lifetimes.maxHours, limit],
    );
  }
}
