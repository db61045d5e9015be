import { Injectable } from '@nestjs/common';
import { EntityManager, Not } from 'typeorm';
import { preparedInTransaction } from '../../platform/database/prepared-in-transaction';
import { Database } from '../../platform/database/database';
import { SendingDomainEntity } from './entities/sending-domain.entity';

const UNIQUE_VIOLATION = '23505';
// Advisory lock space of the per-user domain count (the other half of the key is the user's hash).
const DOMAIN_COUNT_LOCK = 0x646f6d73;

export type NewSendingDomain = Pick<
  SendingDomainEntity,
  'id' | 'userId' | 'name' | 'selector' | 'publicKey' | 'privateKey'
>;

/** What became of an insert: the stored domain, or why there is none. */
export type AddResult = SendingDomainEntity | 'duplicate' | 'selector taken' | 'limit reached';

/** A user's sending domains; every method takes the owner, so no one reaches another's. */
@Injectable()
export class DomainsRepository {
  constructor(private readonly database: Database) {}

  private get domains() {
    return this.database.repository(SendingDomainEntity);
  }

  list(userId: string): Promise<SendingDomainEntity[]> {
    return this.domains.find({ where: { userId }, order: { createdAt: 'ASC', id: 'ASC' } });
  }

  async get(userId: string, id: string): Promise<SendingDomainEntity | undefined> {
    return (await this.domains.findOneBy({ userId, id })) ?? undefined;
  }

  async has(userId: string, name: string): Promise<boolean> {
    return this.domains.existsBy({ userId, name });
  }

  /**
   * Adds the domain unless the user has it already or has `limit` domains; counted under a per-user lock, so concurrent
   * adds cannot pass the limit. `also` runs in the same transaction once it is added (its audit entry).
   */
  add(
    domain: NewSendingDomain,
    limit: number,
    also?: (manager: EntityManager) => Promise<unknown>,
  ): Promise<AddResult> {
    return this.database.transaction(async (manager) => {
      await manager.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [DOMAIN_COUNT_LOCK, domain.userId]);
      const repository = manager.getRepository(SendingDomainEntity);
      if ((await repository.countBy({ userId: domain.userId })) >= limit) return 'limit reached';
      // Either unique constraint may refuse the row: the user's name, or another user's selector for the same name.
      const inserted: { id: string }[] = await manager.query(
        `INSERT INTO sending_domains (id, user_id, name, selector, public_key, private_key, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, date_trunc('milliseconds', clock_timestamp()))
         ON CONFLICT DO NOTHING RETURNING id`,
        [domain.id, domain.userId, domain.name, domain.selector, domain.publicKey, domain.privateKey],
      );
      if (inserted.length === 0) {
        return (await repository.existsBy({ userId: domain.userId, name: domain.name }))
          ? 'duplicate'
          : 'selector taken';
      }
      await also?.(manager);
      return repository.findOneByOrFail({ id: domain.id });
    });
  }

  /**
   * Records a check's verdict, in the caller's transaction: verified (since the first success in a
   * row) or pending. Pending stops receiving, `why` saying so (docs/inbound.md: receiving follows
   * verification). `changed`: the status moved (docs/delivery-and-deliverability.md#webhooks domain events). Undefined when the domain is gone.
   */
  async setVerified(
    manager: EntityManager,
    userId: string,
    id: string,
    verdict: { verified: true } | { verified: false; why: string },
  ): Promise<{ domain: SendingDomainEntity; changed: boolean } | undefined> {
    const { verified } = verdict;
    // An UPDATE's answer through TypeORM: [rows, count]. SET reads the row as it was.
    const [rows]: [{ was: boolean }[], number] = await manager.query(
      `UPDATE sending_domains d
       SET verified_at = CASE WHEN $3 THEN coalesce(d.verified_at, date_trunc('milliseconds', clock_timestamp())) END,
           receiving = $3 AND d.receiving,
           receiving_stopped = CASE WHEN NOT $3 AND d.receiving THEN $4 ELSE d.receiving_stopped END
       FROM (SELECT id, verified_at IS NOT NULL AS was FROM sending_domains WHERE user_id = $1 AND id = $2 FOR UPDATE) before
       WHERE d.id = before.id RETURNING before.was`,
      [userId, id, verified, verdict.verified ? null : verdict.why],
    );
    if (rows.length === 0) return undefined;
    const domain = await manager.getRepository(SendingDomainEntity).findOneByOrFail({ id });
    return { domain, changed: rows[0].was !== verified };
  }

  /**
   * Turns receiving on (a verified domain only, checked in the same statement as a verify that
   * loses it) or off; 'pending' when it is not verified, 'taken' when another user receives for
   * the name (the partial unique index decides, so two users turning it on at once cannot both
   * win). `first` runs in the same transaction, before (a stale holder's demotion); `then` after, when
   * the domain was switched (its audit entry). Undefined: no such domain.
   */
  async setReceiving(
    userId: string,
    id: string,
    receiving: boolean,
    first?: (manager: EntityManager) => Promise<unknown>,
    then?: (manager: EntityManager) => Promise<unknown>,
  ): Promise<SendingDomainEntity | 'pending' | 'taken' | undefined> {
    const rows = await this.database
      .transaction(async (manager) => {
        await first?.(manager);
        // An UPDATE's raw answer is [rows, affected].
        const [updated]: [{ id: string }[], number] = await manager.query(
          `UPDATE sending_domains SET receiving = $3, receiving_stopped = NULL
           WHERE user_id = $1 AND id = $2 AND (NOT $3 OR verified_at IS NOT NULL) AND NOT EXISTS (
           SELECT 1 FROM sending_domains other
           WHERE $3 AND other.receiving AND other.name = sending_domains.name AND other.id <> sending_domains.id)
           RETURNING id`,
          [userId, id, receiving],
        );
        if (updated.length > 0) await then?.(manager);
        return updated;
      })
      .catch((error: { code?: string }) => {
        // Two users turning it on at the same moment: the index refuses the second (and undoes its `first`).
        if (error.code === UNIQUE_VIOLATION) return [];
        throw error;
      });
    if (rows.length > 0) return this.get(userId, id);
    const domain = await this.get(userId, id);
    return domain && (domain.verifiedAt ? 'taken' : 'pending');
  }

  /** Another domain receiving for the name (any user's), if any. */
  async otherReceiving(name: string, id: string): Promise<SendingDomainEntity | undefined> {
    return (await this.domains.findOneBy({ name, receiving: true, id: Not(id) })) ?? undefined;
  }

  /** The user receiving mail for a domain name (A-labels, lower case), if any: receiving and verified. */
  async receiverOf(name: string): Promise<string | undefined> {
    const rows: { user_id: string }[] = await this.database.query(
      `SELECT user_id FROM sending_domains WHERE name = $1 AND receiving AND verified_at IS NOT NULL`,
      [name],
    );
    return rows[0]?.user_id;
  }

  /** Whether there was a domain to remove; `also` runs in the same transaction when there was (its audit entry). */
  remove(userId: string, id: string, also?: (manager: EntityManager) => Promise<unknown>): Promise<boolean> {
    return this.database.transaction(async (manager) => {
      const { affected } = await manager.getRepository(SendingDomainEntity).delete({ userId, id });
      if (!affected) return false;
      await also?.(manager);
      return true;
    });
  }

  /**
   * For each candidate (a message, its owner, one name its sender is at or under), the verified
   * domain of that owner and name with the longest name, per message; one statement for a batch of
   * messages, in the caller's transaction, through the (user_id, name) unique index.
   */
  async longestVerifiedOf(
    manager: EntityManager,
    candidates: { messageId: string; userId: string; name: string }[],
  ): Promise<{ messageId: string; domainId: string; domainName: string; keySelector: string; sealed: Buffer }[]> {
    // Run for every claim: planned once per connection (preparedInTransaction), not each time.
    const rows = await preparedInTransaction<{
      message_id: string;
      id: string;
      name: string;
      selector: string;
      private_key: Buffer;
    }>(
      manager,
      `SELECT DISTINCT ON (c.message_id) c.message_id, d.id, d.name, d.selector, d.private_key
       FROM unnest($1::uuid[], $2::text[], $3::text[]) AS c(message_id, user_id, name)
       JOIN sending_domains d ON d.user_id = c.user_id AND d.name = c.name AND d.verified_at IS NOT NULL
       ORDER BY c.message_id, length(d.name) DESC`,
      [candidates.map((c) => c.messageId), candidates.map((c) => c.userId), candidates.map((c) => c.name)],
    );
    return rows.map((row) => ({
      messageId: row.message_id,
      domainId: row.id,
      domainName: row.name,
      keySelector: row.selector,
      sealed: row.private_key,
    }));
  }
}
