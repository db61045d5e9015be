import { Injectable } from '@nestjs/common';
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
  constructor(private readonly suppressions: SuppressionsRepository) {}

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
  async add(userId: string, body: CreateSuppressionDto): Promise<SuppressionResponse> {
    const email = recipientKey(body.email);
    return map(await this.suppressions.add({ userId, email, reason: 'manual', scope: body.scope, messageId: null }));
  }

  async remove(userId: string, email: string): Promise<void> {
    if (!isEmailAddress(email)) throw new NotFoundError('That suppression');
    if (!(await this.suppressions.remove(userId, recipientKey(email))))
      throw new NotFoundError(`A suppression of ${email}`);
  }
}
