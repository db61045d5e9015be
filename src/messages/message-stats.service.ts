import { Injectable } from '@nestjs/common';
import { InvalidInputError } from '../platform/problem/problem.errors';
import { StatsQuery } from './dto/stats.query';
import { RecipientCountsResponse, StatsResponse, StatusCountsResponse } from './dto/stats.response';
import { MessageCountsRepository } from './message-counts.repository';
import { MESSAGE_STATUSES } from './message-status';
import type { MessageStatus } from './message-status';
import { RECIPIENT_STATUSES } from './recipient-fates';
import type { Refusal, RecipientStatus } from './recipient-fates';

const DAY_MS = 86_400_000;
/** A leap year's days: a year of figures, whatever the year. */
export const MAX_STATS_DAYS = 366;
const DEFAULT_DAYS = 30;
// 0001-01-01: dates as docs/api.md#paging-and-filters takes them start there.
const FIRST_MIDNIGHT = -62_135_596_800_000;

/** A team's daily numbers (docs/api.md#reading-back), from the kept per-day counts that lists' totals read too. */
@Injectable()
export class MessageStatsService {
  constructor(private readonly counts: MessageCountsRepository) {}

  async stats(userId: string, query: StatsQuery, now = new Date()): Promise<StatsResponse> {
    const [first, last] = rangeOf(query, now);
    const dates = Array.from({ length: (last - first) / DAY_MS + 1 }, (_, i) => dayOf(first + i * DAY_MS));
    const [kept, keptRecipients] = await Promise.all([
      this.counts.byDay(userId, dates[0], dates[dates.length - 1]),
      this.counts.recipientsByDay(userId, dates[0], dates[dates.length - 1]),
    ]);
    // A day's rows (kept counts and pending changes) added up by their day's place in the range.
    const place = new Map(dates.map((date, i) => [date, i]));
    const counts = dates.map(zeros);
    for (const { day, status, n } of kept) counts[place.get(day)!][status] += n;
    const recipients = dates.map(recipientZeros);
    const refused = { address: 0, other: 0 };
    for (const { day, status, n } of keptRecipients) {
      const [fate, refusal] = status.split(':') as [RecipientStatus, Refusal | undefined];
      recipients[place.get(day)!][fate] += n;
      if (refusal) refused[refusal] += n;
    }
    const totals = zeros();
    const recipientTotals = recipientZeros();
    const days = dates.map((date, i) => {
      let accepted = 0;
      for (const status of MESSAGE_STATUSES) {
        accepted += counts[i][status];
        totals[status] += counts[i][status];
      }
      for (const fate of RECIPIENT_STATUSES) recipientTotals[fate] += recipients[i][fate];
      return { date, accepted, byStatus: counts[i], recipients: recipients[i] };
    });
    return {
      startDate: dates[0],
      endDate: dates[dates.length - 1],
      days,
      totals: {
        accepted: days.reduce((sum, day) => sum + day.accepted, 0),
        byStatus: totals,
        recipients: recipientTotals,
      },
      rates: { delivered: totals.sent + totals.bounced + totals.complained, ...ratesOf(recipientTotals, refused) },
    };
  }
}

/**
 * docs/api.md#reading-back's rates, over recipients as mailbox providers count them: bounces are those that
 * bounced after acceptance and those the receiving server refused for the address itself, over
 * every recipient handed over (accepted, or refused by the server for whatever reason); complaints
 * over those accepted. A recipient no server answered was never handed over: in neither.
 */
export function ratesOf(
  recipients: Record<RecipientStatus, number>,
  refused: Record<Refusal, number>,
): { bounceRate: number | null; complaintRate: number | null } {
  const accepted = recipients.sent + recipients.bounced + recipients.complained;
  const handedOver = accepted + refused.address + refused.other;
  return {
    bounceRate: handedOver === 0 ? null : (recipients.bounced + refused.address) / handedOver,
    complaintRate: accepted === 0 ? null : recipients.complained / accepted,
  };
}

/**
 * The range's first and last UTC days (their midnights): those of the moments given, the last
 * defaulting to today (or the first day, if later) and the first to 29 days before the last.
 */
function rangeOf({ startDate, endDate }: StatsQuery, now: Date): [number, number] {
  const last = endDate ? midnightOf(endDate) : Math.max(midnightOf(now), startDate ? midnightOf(startDate) : 0);
  const first = startDate ? midnightOf(startDate) : Math.max(last - (DEFAULT_DAYS - 1) * DAY_MS, FIRST_MIDNIGHT);
  const days = (last - first) / DAY_MS + 1;
  if (days > MAX_STATS_DAYS) {
    throw new InvalidInputError([
      {
        field: endDate ? 'endDate' : 'startDate',
        message: `must be within ${MAX_STATS_DAYS} days of ${endDate ? 'startDate' : 'today'} (the range has ${days})`,
      },
    ]);
  }
  return [first, last];
}

// Not Date.UTC, which reads years 0–99 as 1900–1999.
const midnightOf = (date: Date) => Math.floor(date.getTime() / DAY_MS) * DAY_MS;
const dayOf = (midnight: number) => new Date(midnight).toISOString().slice(0, 10);
// Literals, not built from MESSAGE_STATUSES and RECIPIENT_STATUSES: one of fixed shape is several
// times cheaper to make, 366 times a request; `satisfies` keeps each to every status.
const zeros = (): StatusCountsResponse =>
  ({
    scheduled: 0,
    queued: 0,
    sending: 0,
    deferred: 0,
    sent: 0,
    failed: 0,
    canceled: 0,
    suppressed: 0,
    bounced: 0,
    complained: 0,
  }) satisfies Record<MessageStatus, number>;
const recipientZeros = (): RecipientCountsResponse =>
  ({
    pending: 0,
    sent: 0,
    deferred: 0,
    failed: 0,
    bounced: 0,
    complained: 0,
    suppressed: 0,
    canceled: 0,
  }) satisfies Record<RecipientStatus, number>;
