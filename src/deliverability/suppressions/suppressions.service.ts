import { Injectable } from '@nestjs/common';
import { AuditLog } from '../../auth';
import type { AuthUser } from '../../auth';
import { Database } from '../../platform/database/database';
import { pageEnvelope } from '../../platform/paging';
import { NotFoundError } from '../../platform/problem/problem.errors';
import { isEmailAddress } from '../../platform/validation/email-address';
import { recipientKey } from '../../messages';
import {
  CreateSuppressionDto,
  ListSuppressionsQuery,
  SuppressionPageResponse,
  SuppressionResponse,
} from './dto/suppression.dto';
import { mapSuppression as map } from './suppression.mapper';
import { SuppressionsRepository } from './suppressions.repository';

/** GET, POST and DELETE /user/suppressions (docs/api.md#routes): addresses are keyed as recipients are compared. */
@Injectable()
export class SuppressionsService {
  constructor(
    private readonly suppressions: SuppressionsRepository,
    private readonly database: Database,
    private readonly audit: AuditLog,
  ) {}

  async list(userId: string, query: ListSuppressionsQuery): Promise<SuppressionPageResponse> {
    const email = query.email === undefined ? undefined : recipientKey(query.email);
    const [entries, total] = await this.suppressions.page(userId, email, (query.page - 1) * query.take, query.take);
    return { suppressions: entries.map(map), ...pageEnvelope(query, total) };
  }

  /**
   * Idempotent: an address already on the list keeps its entry (its reason and date), as Postmark
   * does, unless this one stops more mail (`all` over an unsubscribe's `bulk`); the answer is the
   * entry as it stands, so a narrower request shows the wider entry it met.
   */
  async add(user: AuthUser, body: CreateSuppressionDto): Promise<SuppressionResponse> {
    const email = recipientKey(body.email);
    const entry = await this.database.transaction(async (manager) => {
      const added = await this.suppressions.add(
        { userId: user.id, email, reason: 'manual', scope: body.scope, messageId: null },
        manager,
      );
      // What was asked, whether or not the entry there already stopped as much.
      await this.audit.record(manager, {
        by: user,
        action: 'suppression.created',
        target: { type: 'suppression', id: email },
        detail: { scope: body.scope ?? 'all' },
      });
      return added;
    });
    return map(entry);
  }

  async remove(user: AuthUser, email: string): Promise<void> {
    if (!isEmailAddress(email)) throw new NotFoundError('That suppression');
    const key = recipientKey(email);
    const removed = await this.suppressions.remove(user.id, key, undefined, (manager) =>
      this.audit.record(manager, { by: user, action: 'suppression.deleted', target: { type: 'suppression', id: key } }),
    );
    if (!removed) throw new NotFoundError(`A suppression of ${email}`);
  }
}
