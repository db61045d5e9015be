import { Injectable } from '@nestjs/common';
import { Database } from '../../platform/database/database';
import { memberColumns, type AlsoInTransaction, type Member } from '../members/members.repository';

const MEMBER_COLUMNS = memberColumns('m');

/**
 * Pending password resets (docs/teams.md#password-reset), by the SHA-256 of their link's token.
 * Redeeming one changes its member's password and ends the member's sessions: those tables are
 * auth's too, and the three changes commit together or not at all.
 */
@Injectable()
export class PasswordResetsRepository {
  constructor(private readonly database: Database) {}

  /** Active members with this address, in every account (one mail each). */
  activeMembers(email: string, limit: number): Promise<Member[]> {
    return this.database.query(
      `SELECT ${MEMBER_COLUMNS} FROM members m WHERE lower(m.email) = lower($1) AND m.status = 'active'
       ORDER BY m.account_id, m.id LIMIT $2`,
      [email, limit],
    );
  }

  /** Stores a reset valid `validMinutes`; the member's earlier pending resets go, so only the latest link works. */
  async create(id: string, memberId: string, tokenHash: Buffer, validMinutes: number): Promise<void> {
    await this.database.query(
      // One reading of the clock for both: two could fall either side of a millisecond, and the
      // link would last a millisecond more than it says (seen in CI).
      `WITH earlier AS (DELETE FROM password_resets WHERE member_id = $2),
            now AS (SELECT date_trunc('milliseconds', clock_timestamp()) AS at)
       INSERT INTO password_resets (id, member_id, token_hash, created_at, expires_at)
       SELECT $1, $2, $3, now.at, now.at + make_interval(mins => $4) FROM now`,
      [id, memberId, tokenHash, validMinutes],
    );
  }

  /**
   * Redeems an unexpired reset of an active member once: its row is deleted, the member's password
   * set and all its sessions ended, in one transaction with what `also` records. Undefined when no
   * such reset is pending (used, expired, forged, or its member gone).
   */
  redeem(tokenHash: Buffer, passwordHash: string, also: AlsoInTransaction): Promise<Member | undefined> {
    return this.database.transaction(async (manager) => {
      const [redeemed]: [{ memberId: string }[], number] = await manager.query(
        `DELETE FROM password_resets WHERE token_hash = $1 AND expires_at > clock_timestamp()
         RETURNING member_id AS "memberId"`,
        [tokenHash],
      );
      if (!redeemed[0]) return undefined;
      const [rows]: [Member[], number] = await manager.query(
        `UPDATE members m SET password_hash = $2 WHERE m.id = $1 AND m.status = 'active' RETURNING ${MEMBER_COLUMNS}`,
        [redeemed[0].memberId, passwordHash],
      );
      const member = rows[0];
      if (!member) return undefined;
      await manager.query('DELETE FROM member_sessions WHERE member_id = $1', [member.id]);
      await manager.query('DELETE FROM password_resets WHERE member_id = $1', [member.id]);
      await also(manager, member);
      return member;
    });
  }

  /** Forgets up to `limit` resets that ended unused (the periodic sweep); how many. */
  async forgetExpired(limit: number): Promise<number> {
    return this.database.rowsChanged(
      `DELETE FROM password_resets WHERE id IN (
         SELECT id FROM password_resets WHERE expires_at <= clock_timestamp() LIMIT $1 FOR UPDATE SKIP LOCKED)`,
      [limit],
    );
  }
}
