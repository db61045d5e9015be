import { Injectable } from '@nestjs/common';
import { InvalidInputError } from '../common/problem/problem.errors';
import { StatsQuery } from './dto/stats.query';
import { StatsResponse, StatusCountsResponse } from './dto/stats.response';
import { MessageCountsRepository } from './message-counts.repository';
import { MESSAGE_STATUSES } from './message-status';

const DAY_MS = 86_400_000;
/** A leap year's days: a year of figures, whatever the year. */
export const MAX_STATS_DAYS = 366;
const DEFAULT_DAYS = 30;
// 0001-01-01: dates as §6 takes them start there.
const FIRST_MIDNIGHT = -62_135_596_800_000;

/** A team's daily numbers (SPEC §12), from the kept per-day counts that lists' totals read too. */
@Injectable()
export class MessageStatsService {
  constructor(private readonly counts: MessageCountsRepository) {}

  async stats(userId: string, query: StatsQuery, now = new Date()): Promise<StatsResponse> {
    const [first, last] = rangeOf(query, now);
    const kept = await this.counts.byDay(userId, dayOf(first), dayOf(last));
    const byDay = new Map<string, StatusCountsResponse>();
    for (const { day, status, n } of kept) {
      const counts = byDay.get(day) ?? zeros();
      counts[status] += n;
      byDay.set(day, counts);
    }
    const totals = zeros();
    const days = [];
    for (let at = first; at <= last; at += DAY_MS) {
      const byStatus = byDay.get(dayOf(at)) ?? zeros();
      for (const status of MESSAGE_STATUSES) totals[status] += byStatus[status];
      days.push({ date: dayOf(at), accepted: sum(byStatus), byStatus });
    }
    const delivered = totals.sent + totals.bounced + totals.complained;
    return {
      startDate: dayOf(first),
      endDate: dayOf(last),
      days,
      totals: { accepted: sum(totals), byStatus: totals },
      rates: {
        delivered,
        bounceRate: delivered === 0 ? null : totals.bounced / delivered,
        complaintRate: delivered === 0 ? null : totals.complained / delivered,
      },
    };
  }
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
const sum = (counts: StatusCountsResponse) => MESSAGE_STATUSES.reduce((total, s) => total + counts[s], 0);
const zeros = () =>
  Object.fromEntries(MESSAGE_STATUSES.map((status) => [status, 0])) as unknown as StatusCountsResponse;
