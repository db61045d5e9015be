/** Why an address is on a user's suppression list (docs/api.md#routes, docs/delivery-and-deliverability.md). */
export const SUPPRESSION_REASONS = ['hard_bounce', 'complaint', 'unsubscribe', 'manual'] as const;
export type SuppressionReason = (typeof SUPPRESSION_REASONS)[number];

/**
 * The reasons a user may give through the API: as with Postmark, only a manual entry. The others
 * record what a bounce, a complaint or an unsubscribe said, and a client must not forge them.
 */
export const API_SUPPRESSION_REASONS = ['manual'] as const satisfies readonly SuppressionReason[];

/**
 * Which mail an entry stops (docs/delivery-and-deliverability.md): `all`, or only `bulk` mail (a message with a bulkSendingId),
 * so that a reader who leaves a newsletter still gets the password reset.
 */
export const SUPPRESSION_SCOPES = ['all', 'bulk'] as const;
export type SuppressionScope = (typeof SUPPRESSION_SCOPES)[number];

/** The scope a reason gives: an unsubscribe leaves the bulk stream; the others stop everything unless a manual entry asks for less. */
export const DEFAULT_SCOPES: Record<SuppressionReason, SuppressionScope> = {
  hard_bounce: 'all',
  complaint: 'all',
  unsubscribe: 'bulk',
  manual: 'all',
};
