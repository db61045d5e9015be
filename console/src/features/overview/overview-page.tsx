import { lazy, Suspense } from 'react';
import { Link } from 'react-router';
import { useStats, type Stats } from '../../api/stats';
import { QueryView } from '../../components/query-view';
import { Empty, Loading } from '../../components/states';
import { DailyTable } from './daily-table';

// uPlot loads with the page that draws it, not with the console's first load.
const StatsChart = lazy(() => import('./stats-chart'));

/** Gmail's and Yahoo's bulk-sender rules: spam complaints must stay below 0.3 %. */
const COMPLAINT_LIMIT = 0.003;

/** docs/architecture.md#the-console Overview: the last 30 days of stats (docs/api.md#routes) as a chart, with totals and rates. */
export function OverviewPage() {
  const query = useStats();
  return (
    <section aria-labelledby="overview-title">
      <header className="page-header">
        <h1 id="overview-title">Overview</h1>
        <span className="muted">Last 30 days, by UTC day accepted</span>
      </header>
      <QueryView query={query} what="the stats">
        {(stats) => (stats.totals.accepted === 0 ? <NoMessagesYet /> : <StatsView stats={stats} />)}
      </QueryView>
    </section>
  );
}

function NoMessagesYet() {
  return (
    <Empty title="No messages yet">
      Nothing was accepted in the last 30 days. Send one with <code>POST /sender/send</code> or over SMTP, and it shows
      up here and under <Link to="/messages">Messages</Link>.
    </Empty>
  );
}

function StatsView({ stats }: { stats: Stats }) {
  const { totals, rates } = stats;
  const complaintHigh = rates.complaintRate !== null && rates.complaintRate >= COMPLAINT_LIMIT;
  const recipients = totals.recipients;
  return (
    <>
      <dl className="stat-tiles">
        <Tile label="Messages" value={totals.accepted.toLocaleString()} />
        <Tile
          label="Recipients delivered"
          value={(recipients.sent + recipients.bounced + recipients.complained).toLocaleString()}
        />
        <Tile label="Bounce rate" value={percent(rates.bounceRate)} />
        <Tile label="Complaint rate" value={percent(rates.complaintRate)} warn={complaintHigh} />
        <Tile label="Recipients failed" value={recipients.failed.toLocaleString()} />
        <Tile label="Recipients suppressed" value={recipients.suppressed.toLocaleString()} />
      </dl>
      <p className={complaintHigh ? 'inline-note' : 'muted small'}>
        Gmail and Yahoo require bulk senders to keep spam complaints under 0.3 % (and advise under 0.1 %); above it,
        their mail goes to spam or is refused. Rates count recipients, as mailbox providers do: bounces (including
        addresses the receiving server refused as unknown) over the recipients handed to it; complaints over those it
        accepted.
      </p>
      <div className="card">
        <Suspense fallback={<Loading what="the chart" />}>
          <StatsChart days={stats.days} />
        </Suspense>
        <p className="visually-hidden">The chart shows the daily numbers in the table below.</p>
      </div>
      <DailyTable days={stats.days} />
    </>
  );
}

function Tile({ label, value, warn }: { label: string; value: string; warn?: boolean }) {
  return (
    <div className={warn ? 'stat-tile stat-warn' : 'stat-tile'}>
      <dt>{label}</dt>
      <dd>{value}</dd>
    </div>
  );
}

function percent(rate: number | null): string {
  return rate === null ? '—' : `${(rate * 100).toFixed(2)} %`;
}
