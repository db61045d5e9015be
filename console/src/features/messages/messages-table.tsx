import { Link } from 'react-router';
import type { Message } from '../../api/messages';
import { Moment } from '../../components/moment';
import { StatusBadge } from '../../components/status-badge';

/** One row per message, newest first; each row links to its Message page. */
export function MessagesTable({ messages }: { messages: Message[] }) {
  return (
    <table className="table stack-on-narrow">
      <thead>
        <tr>
          <th scope="col">Subject</th>
          <th scope="col">To</th>
          <th scope="col">Status</th>
          <th scope="col">Sent</th>
        </tr>
      </thead>
      <tbody>
        {messages.map((message) => (
          <tr key={message.id}>
            <td data-label="Subject">
              <Link to={`/messages/${message.id}`}>{message.subject}</Link>
              <div className="muted small">{message.sender}</div>
            </td>
            <td data-label="To" className="wrap">
              {message.to.join(', ')}
            </td>
            <td data-label="Status">
              <StatusBadge status={message.status} />
            </td>
            <td data-label="Sent">
              <Moment iso={message.sentAt} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
