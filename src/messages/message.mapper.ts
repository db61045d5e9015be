import type { MessageResponse } from './dto/message.response';
import { rowAsApi } from './message-fields';
import { fatesFromStatus } from './recipient-fates';
import type { MessageRow, StatusEventRow } from './messages.repository';

/** The one place where a stored message becomes the API's Message. */
export function mapMessage(row: MessageRow, history?: StatusEventRow[]): MessageResponse {
  const message = rowAsApi(row);
  return {
    ...message,
    // Only a deferred message has a next attempt, whoever wrote the row (a process of the previous
    // version claiming a deferred message leaves the column as it was).
    ...(row.status !== 'deferred' && { nextAttemptAt: null }),
    // A message stored with no fates kept (before they were, or by the previous version).
    recipients:
      row.recipientFates.length === 0
        ? fatesFromStatus({ ...row, to: row.recipients }).map((fate) => ({ ...fate, route: null }))
        : // What the Message shows of each (docs/delivery-and-deliverability.md#statuses): `refused` is the stats' own.
          row.recipientFates.map(({ email, type, status, detail, at, route }) => ({
            email,
            type,
            status,
            detail,
            at,
            route: route ? { host: route.host, tls: route.tls } : null,
          })),
    ...(history && {
      statusHistory: history.map((e) => ({
        status: e.status,
        at: e.at.toISOString(),
        detail: e.detail,
        ...(e.recipient !== null && { recipient: e.recipient }),
      })),
    }),
  };
}

/**
 * The history as it stood at the message's `sequence`-th status change: the entries up to that
 * change, the notes before it included (a webhook event shows the message as it was then).
 */
export function historyAsOf(history: StatusEventRow[], sequence: number): StatusEventRow[] {
  let changes = 0;
  const end = history.findIndex((entry) => !entry.note && ++changes === sequence);
  return end < 0 ? history : history.slice(0, end + 1);
}
