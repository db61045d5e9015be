import { Link } from 'react-router';
import type { Message } from '../../api/messages';
import { Address, Addresses } from '../../components/address';
import { Moment } from '../../components/moment';
import { StatusBadge } from '../../components/status-badge';
import { Cell, Table } from '../../components/table';

/** One row per message, newest first; each row links to its Message page. */
export function MessagesTable({ messages }: { messages: Message[] }) {
  return (
    <Table columns={['Subject', 'To', 'Status', 'Sent']}>
      {messages.map((message) => (
        <tr key={message.id}>
          <Cell label="Subject" wrap>
            {/* One block: on a narrow screen the cell is a row (label, value), and the sender goes under the subject. */}
            <div>
              <Link to={`/messages/${message.id}`}>{message.subject}</Link>
              <div className="muted small">
                <Address value={message.sender} />
              </div>
            </div>
          </Cell>
          <Cell label="To" wrap>
            <Addresses values={message.to} />
          </Cell>
          <Cell label="Status">
            <StatusBadge status={message.status} />
          </Cell>
          <Cell label="Sent">
            <Moment iso={message.sentAt} />
          </Cell>
        </tr>
      ))}
    </Table>
  );
}
