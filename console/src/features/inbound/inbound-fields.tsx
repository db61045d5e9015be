import type { ReactNode } from 'react';
import { Link } from 'react-router';
import type { InboundMail } from '../../api/inbound';
import { FieldList } from '../../components/field-list';
import { Moment } from '../../components/moment';

const list = (values: string[]) => (values.length ? values.join(', ') : null);

/** A received mail's header mailboxes, its envelope, and the sent message it answers. */
export function InboundFields({ mail }: { mail: InboundMail }) {
  const rows: [string, ReactNode][] = [
    ['Id', <code key="id">{mail.id}</code>],
    ['From', mail.from],
    ['To', list(mail.to)],
    ['Cc', list(mail.cc)],
    ['Received', <Moment key="received" iso={mail.receivedAt} />],
    ['Envelope from', mail.envelope.mailFrom || '<> (the null sender)'],
    ['Envelope to (yours)', list(mail.envelope.rcptTo)],
    ['Message-ID', mail.messageId ? <code key="message-id">{mail.messageId}</code> : null],
    [
      'In reply to',
      mail.replyToMessageId ? (
        <Link key="reply" to={`/messages/${mail.replyToMessageId}`}>
          your message {mail.replyToMessageId}
        </Link>
      ) : null,
    ],
  ];
  return <FieldList rows={rows} />;
}
