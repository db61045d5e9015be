const DAY_MS = 86_400_000;

/**
 * The first moment MESSAGE_RETENTION_DAYS keeps: midnight UTC `days` days before `now`'s day.
 * Every purger (sent mail, received mail, account-event deliveries) keeps the same window.
 */
export function retentionCutoff(days: number, now = new Date()): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()) - days * DAY_MS);
}
