import type { ReactNode } from 'react';
import type { Message } from '../../api/messages';
import { FieldList } from '../../components/field-list';
import { Moment } from '../../components/moment';

const list = (values: string[] | null | undefined) => (values?.length ? values.join(', ') : null);

/** The message's own fields, as accepted. */
export function MessageFields({ message }: { message: Message }) {
  const rows: [string, ReactNode][] = [
    ['Id', <code key="id">{message.id}</code>],
    ['From', message.sender],
    ['To', list(message.to)],
    ['Cc', list(message.cc)],
    ['Bcc', list(message.bcc)],
    ['Reply-To', list(message.replyTo)],
    ['Accepted', <Moment key="sent" iso={message.sentAt} />],
    ['Scheduled for', message.scheduledAt ? <Moment key="scheduled" iso={message.scheduledAt} /> : null],
    ['Priority', message.priority],
    ['Bulk sending id', message.bulkSendingId],
    ['Contact id', message.contactId],
    [
      'Custom payload',
      message.customPayload ? <code key="payload">{JSON.stringify(message.customPayload)}</code> : null,
    ],
  ];
  return <FieldList rows={rows} />;
}
