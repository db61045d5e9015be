import type { SuppressionResponse } from './dto/suppression.dto';
import type { SuppressionEntity } from './entities/suppression.entity';

/** The one place where an entry becomes the API's (the list, and suppression events' `data`). */
export function mapSuppression(entry: SuppressionEntity): SuppressionResponse {
  return {
    email: entry.email,
    reason: entry.reason,
    scope: entry.scope,
    messageId: entry.messageId,
    createdAt: entry.createdAt.toISOString(),
  };
}
