import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import type { ReportKind } from './delivery-report';

/** The applied_reports table: each report applied once, by its fingerprint. */
@Injectable()
export class AppliedReportsRepository {
  /**
   * Records the report as applied, in the caller's transaction; false when it already was. A
   * concurrent copy of the same report waits here for the first one's transaction, then finds its row.
   */
  async recordFirst(
    manager: EntityManager,
    report: { messageId: string; recipient: string; kind: ReportKind; fingerprint: string },
  ): Promise<boolean> {
    const rows: unknown[] = await manager.query(
      `INSERT INTO applied_reports (message_id, recipient, kind, fingerprint, applied_at)
       VALUES ($1, $2, $3, $4, date_trunc('milliseconds', clock_timestamp()))
       ON CONFLICT DO NOTHING RETURNING 1`,
      [report.messageId, report.recipient, report.kind, report.fingerprint],
    );
    return rows.length > 0;
  }
}
