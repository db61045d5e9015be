import type { StatsDay } from '../../api/stats';
import { Cell, Table } from '../../components/table';

/**
 * The chart's numbers as a table: its text alternative for screen readers and keyboard users. The
 * messages accepted each UTC day, and their recipients by their own fate (docs/api.md#reading-back), which the rates count.
 */
export function DailyTable({ days }: { days: StatsDay[] }) {
  // Newest first, as the Messages list reads.
  const newestFirst = [...days].reverse();
  return (
    <details className="card">
      <summary>Daily numbers ({days.length} days, UTC)</summary>
      <p className="muted small">
        Messages by the UTC day they were accepted; their recipients by what happened to each.
      </p>
      <Table columns={['Day (UTC)', 'Messages', 'Recipients', 'Sent to', 'Bounced', 'Complained', 'Failed or refused']}>
        {newestFirst.map((day) => (
          <tr key={day.date}>
            <Cell label="Day (UTC)">{day.date}</Cell>
            <Cell label="Messages">{day.accepted}</Cell>
            <Cell label="Recipients">{Object.values(day.recipients).reduce((sum, n) => sum + n, 0)}</Cell>
            <Cell label="Sent to">{day.recipients.sent}</Cell>
            <Cell label="Bounced">{day.recipients.bounced}</Cell>
            <Cell label="Complained">{day.recipients.complained}</Cell>
            <Cell label="Failed or refused">{day.recipients.failed}</Cell>
          </tr>
        ))}
      </Table>
    </details>
  );
}
