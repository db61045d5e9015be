import { Link } from 'react-router';
import type { AuditEntry } from '../../api/audit-log';
import { Moment } from '../../components/moment';
import { Cell, Table } from '../../components/table';
import { auditUrl } from './url-filters';

const ACTOR_KINDS: Record<AuditEntry['actor']['type'], string> = { member: 'member', api_key: 'API key', jwt: 'JWT' };

/** A few facts of the change, `name: value` each (the API keeps secrets out of them). */
function details(detail: AuditEntry['detail']): string {
  return Object.entries(detail)
    .map(([name, value]) => `${name}: ${typeof value === 'string' ? value : JSON.stringify(value)}`)
    .join(', ');
}

/** One row per change, newest first; an actor links to the log filtered to that actor. */
export function AuditTable({ entries }: { entries: AuditEntry[] }) {
  return (
    <Table columns={['When', 'Actor', 'Action', 'Target', 'From', 'Detail']}>
      {entries.map((entry) => (
        <tr key={entry.id}>
          <Cell label="When">
            <Moment iso={entry.at} />
          </Cell>
          <Cell label="Actor" wrap>
            {/* One block: a narrow screen lays a cell's children out in a row. */}
            <div>
              <Link
                to={auditUrl.search({ actor: entry.actor.id })}
                aria-label={`Changes by ${entry.actor.label} (${ACTOR_KINDS[entry.actor.type]})`}
              >
                {entry.actor.label}
              </Link>
              <div className="muted small">{ACTOR_KINDS[entry.actor.type]}</div>
            </div>
          </Cell>
          <Cell label="Action">
            <code>{entry.action}</code>
          </Cell>
          <Cell label="Target" wrap>
            <span>
              <span className="muted small">{entry.target.type}</span> <code>{entry.target.id}</code>
            </span>
          </Cell>
          <Cell label="From">{entry.clientAddress}</Cell>
          <Cell label="Detail" wrap>
            {Object.keys(entry.detail).length > 0 ? details(entry.detail) : <span className="muted">—</span>}
          </Cell>
        </tr>
      ))}
    </Table>
  );
}
