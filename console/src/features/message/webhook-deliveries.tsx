import { useState } from 'react';
import { usePermission } from '../../api/caller';
import { useMessageWebhookDeliveries, useReplayDelivery, type WebhookDelivery } from '../../api/webhook-deliveries';
import { ActionButton } from '../../components/action-button';
import { Moment } from '../../components/moment';
import { Pager } from '../../components/pager';
import { QueryView } from '../../components/query-view';
import { Empty, InlineError } from '../../components/states';
import { StatusBadge } from '../../components/status-badge';

/** The message's webhook events with every attempt's response, and replay (docs/api.md#routes). */
export function WebhookDeliveries({ messageId }: { messageId: string }) {
  const [page, setPage] = useState(1);
  const query = useMessageWebhookDeliveries(messageId, page);
  return (
    <section aria-labelledby="webhooks-title" className="card">
      <h2 id="webhooks-title">Webhook deliveries</h2>
      <QueryView query={query} what="webhook deliveries">
        {(result) =>
          result.deliveries.length === 0 ? (
            <Empty title="No webhook events">This message was sent without a webhook.</Empty>
          ) : (
            <>
              <ul className="deliveries">
                {result.deliveries.map((delivery) => (
                  <Delivery key={delivery.id} delivery={delivery} />
                ))}
              </ul>
              {result.totalPages > 1 && <Pager of={result} noun="events" one="event" onPage={setPage} />}
            </>
          )
        }
      </QueryView>
    </section>
  );
}

function Delivery({ delivery }: { delivery: WebhookDelivery }) {
  const replay = useReplayDelivery();
  const canSend = usePermission('send');
  return (
    <li className="delivery">
      <div className="delivery-head">
        <code>{delivery.type}</code>
        <StatusBadge status={delivery.state} />
        <span className="wrap muted small">{delivery.url}</span>
        <ActionButton
          permission={canSend}
          pending={replay.isPending}
          onClick={() => replay.mutate(delivery.id)}
          className="small-button"
        >
          Replay
        </ActionButton>
      </div>
      {replay.isSuccess && <p className="inline-note">Queued again: a new attempt starts shortly.</p>}
      <InlineError error={replay.error} />
      {delivery.nextAttemptAt && (
        <p className="small">
          Next attempt <Moment iso={delivery.nextAttemptAt} />
        </p>
      )}
      <ol className="attempts small">
        {delivery.attempts.map((attempt, index) => (
          <li key={index}>
            <Moment iso={attempt.attemptedAt} />: {attempt.statusCode ?? 'no answer'} in {attempt.durationMs} ms
            {attempt.error && <span className="detail"> · {attempt.error}</span>}
          </li>
        ))}
      </ol>
    </li>
  );
}
