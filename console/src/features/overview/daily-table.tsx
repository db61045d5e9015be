import type { StatsDay } from '../../api/stats';
import { Cell, Table } from '../../components/table';

/** The chart's numbers as a table: its text alternative for screen readers and keyboard users. */
export function DailyTable({ days }: { days: StatsDay[] }) {
  // Newest first, as the Messages list reads.
  const newestFirst = [...days].reverse();
  return (
    <details className="card">
      <summary>Daily numbers ({days.length} days, UTC)</summary>
      <Table columns={['Day', 'Accepted', 'Sent', 'Bounced', 'Complained', 'Failed']}>
        {newestFirst.map((day) => (
          <tr key={day.date}>
            <Cell label="Day">{day.date}</Cell>
            <Cell label="Accepted">{day.accepted}</Cell>
            <Cell label="Sent">{day.byStatus.sent}</Cell>
            <Cell label="Bounced">{day.byStatus.bounced}</Cell>
            <Cell label="Complained">{day.byStatus.complained}</Cell>
            <Cell label="Failed">{day.byStatus.failed}</Cell>
          </tr>
        ))}
      </Table>
    </details>
  );
}
