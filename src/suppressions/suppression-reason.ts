/** Why an address is on a user's suppression list (SPEC §6, §9). */
export const SUPPRESSION_REASONS = ['hard_bounce', 'complaint', 'unsubscribe', 'manual'] as const;
export type SuppressionReason = (typeof SUPPRESSION_REASONS)[number];

/**
 * The reasons a user may give through the API: as with Postmark, only a manual entry. The others
 * record what a bounce, a complaint or an unsubscribe said, and a client must not forge them.
 */
export const API_SUPPRESSION_REASONS = ['manual'] as const satisfies readonly SuppressionReason[];
