import { Link, useParams } from 'react-router';
import { usePermission, type Permission } from '../../api/caller';
import { CANCELABLE, useCancelMessage, useMessage, type Message } from '../../api/messages';
import { ConfirmButton } from '../../components/confirm-button';
import { QueryView } from '../../components/query-view';
import { InlineError } from '../../components/states';
import { StatusBadge } from '../../components/status-badge';
import { cancelQuestion } from './cancel-question';
import { ContentSection } from './content-section';
import { MessageFields } from './message-fields';
import { Recipients } from './recipients';
import { Timeline } from './timeline';
import { WebhookDeliveries } from './webhook-deliveries';

/** What happened to one message and why (docs/architecture.md#the-console): its fields, recipients, timeline,
 * content and webhooks. */
export function MessagePage() {
  const { id = '' } = useParams();
  const query = useMessage(id);
  return (
    <section aria-labelledby="message-title">
      <p>
        <Link to="/messages" onClick={(event) => history.length > 1 && (event.preventDefault(), history.back())}>
          ← Messages
        </Link>
      </p>
      <QueryView
        query={query}
        what="the message"
        inputTitle="Check the message id in the address"
        back={{ to: '/messages', label: 'Back to Messages' }}
      >
        {(message) => <MessageView message={message} />}
      </QueryView>
    </section>
  );
}

/** Cancel as docs/delivery-and-deliverability.md#statuses allows it: from scheduled, queued or deferred; otherwise why not, as the API's 409 says. */
function cancelable(message: Message): Permission {
  if (CANCELABLE.includes(message.status)) return { allowed: true };
  return {
    allowed: false,
    reason: `Cannot cancel: this message is ${message.status}; only a scheduled, queued or deferred message can be.`,
  };
}

function MessageView({ message }: { message: Message }) {
  const cancel = useCancelMessage(message.id);
  const canSend = usePermission('send');
  return (
    <>
      <header className="page-header">
        <h1 id="message-title" className="wrap">
          {message.subject}
        </h1>
        <StatusBadge status={message.status} />
        <ConfirmButton
          permission={canSend.allowed ? cancelable(message) : canSend}
          pending={cancel.isPending}
          onConfirm={() => cancel.mutate()}
          question={cancelQuestion(message)}
        >
          Cancel
        </ConfirmButton>
      </header>
      <InlineError error={cancel.error} />
      <MessageFields message={message} />
      <Recipients message={message} />
      <Timeline message={message} />
      <ContentSection messageId={message.id} />
      <WebhookDeliveries messageId={message.id} />
    </>
  );
}
