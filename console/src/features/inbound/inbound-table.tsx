import { Link } from 'react-router';
import type { InboundItem } from '../../api/inbound';
import { Address, Addresses } from '../../components/address';
import { Moment } from '../../components/moment';
import { Cell, Table } from '../../components/table';

/** One row per received mail, newest first; each row links to its page. */
export function InboundTable({ mails }: { mails: InboundItem[] }) {
  return (
    <Table columns={['Subject', 'From', 'To', 'Received']}>
      {mails.map((mail) => (
        <tr key={mail.id}>
          <Cell label="Subject" wrap>
            <Link to={`/inbound/${mail.id}`}>{mail.subject || '(no subject)'}</Link>
            {mail.attachments.length > 0 && (
              <div className="muted small">
                {mail.attachments.length} {mail.attachments.length === 1 ? 'attachment' : 'attachments'}
              </div>
            )}
          </Cell>
          <Cell label="From" wrap>
            <Address value={mail.from ?? mail.envelope.mailFrom} />
          </Cell>
          <Cell label="To" wrap>
            <Addresses values={mail.envelope.rcptTo} />
          </Cell>
          <Cell label="Received">
            <Moment iso={mail.receivedAt} />
          </Cell>
        </tr>
      ))}
    </Table>
  );
}
