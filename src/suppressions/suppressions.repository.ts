import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { Database } from '../database/database';
import { SuppressionEntity } from './entities/suppression.entity';
import type { SuppressionReason } from './suppression-reason';

/** A user's suppression list; every method takes the owner, so no one reaches another's entries. */
@Injectable()
export class SuppressionsRepository {
  constructor(private readonly database: Database) {}

  private get entries() {
    return this.database.repository(SuppressionEntity);
  }

  /** A page of the list, newest first, with the number of entries the filter leaves. */
  page(userId: string, email: string | undefined, skip: number, take: number): Promise<[SuppressionEntity[], number]> {
    return this.entries.findAndCount({
      where: { userId, ...(email !== undefined && { email }) },
      order: { createdAt: 'DESC', email: 'DESC' },
      skip,
      take,
    });
  }

  /**
   * Adds the entry unless the address is there already; returns the entry as it now stands. In
   * the caller's transaction when given its manager (a report's status change and entry commit together).
   */
  async add(
    userId: string,
    email: string,
    reason: SuppressionReason,
    messageId: string | null,
    manager?: EntityManager,
  ): Promise<SuppressionEntity> {
    const entries = manager?.getRepository(SuppressionEntity) ?? this.entries;
    await entries
      .createQueryBuilder()
      .insert()
      .values({ userId, email, reason, messageId, createdAt: () => "date_trunc('milliseconds', clock_timestamp())" })
      .orIgnore()
      .execute();
    return entries.findOneByOrFail({ userId, email });
  }

  /** Whether there was an entry to remove; with `reason`, only an entry for that reason goes. */
  async remove(userId: string, email: string, reason?: SuppressionReason): Promise<boolean> {
    const { affected } = await this.entries.delete({ userId, email, ...(reason && { reason }) });
    return (affected ?? 0) > 0;
  }
}
