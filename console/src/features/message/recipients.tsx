import type { Message } from '../../api/messages';
import { Address } from '../../components/address';
import { Moment } from '../../components/moment';
import { StatusBadge } from '../../components/status-badge';
import { Cell, Table } from '../../components/table';
import { DeliveryByDomain } from './delivery-by-domain';
import { anyRouted } from './domain-routes';

/**
 * Each recipient's own fate (docs/delivery-and-deliverability.md#statuses) with the reply or reason that set it; suppressed
 * ones named first. Then, once a server reported by direct delivery answered for any of them, which one per domain and
 * whether over TLS; relays and the outbox report none, and show the table alone.
 */
export function Recipients({ message }: { message: Message }) {
  const suppressed = message.recipients.filter((recipient) => recipient.status === 'suppressed');
  return (
    <section aria-labelledby="recipients-title" className="card">
      <h2 id="recipients-title">Recipients</h2>
      {suppressed.length > 0 && (
        <p className="inline-note">
          Not sent to {suppressed.map((recipient) => recipient.email).join(', ')}: on your suppression list.
        </p>
      )}
      <Table columns={['Address', 'Type', 'Status', 'Why', 'When']}>
        {message.recipients.map((recipient) => (
          <tr key={`${recipient.type}:${recipient.email}`}>
            <Cell label="Address" wrap>
              <Address value={recipient.email} />
            </Cell>
            <Cell label="Type">{recipient.type}</Cell>
            <Cell label="Status">
              <StatusBadge status={recipient.status} />
            </Cell>
            <Cell label="Why" wrap>
              {recipient.detail ? <span className="detail">{recipient.detail}</span> : <span className="muted">—</span>}
            </Cell>
            <Cell label="When">
              <Moment iso={recipient.at} />
            </Cell>
          </tr>
        ))}
      </Table>
      {anyRouted(message.recipients) && <DeliveryByDomain recipients={message.recipients} />}
    </section>
  );
}
