import { useWebhookDelivery } from '../../api/webhook-deliveries';
import { Moment } from '../../components/moment';
import { QueryView } from '../../components/query-view';

/**
 * What one delivery posts and what came back: the request body, and each attempt's status and the
 * first bytes of its answer. Both are the receiver's or the event's text, shown as text in a <pre>
 * (React escapes it), never as HTML.
 */
export function DeliveryDetails({ id }: { id: string }) {
  const query = useWebhookDelivery(id);
  return (
    <QueryView query={query} what="the delivery's details">
      {(delivery) => (
        <div className="delivery-details" data-testid="delivery-details">
          <h3>Request body</h3>
          <pre className="mail-text">{delivery.request.body}</pre>
          <h3>Attempts</h3>
          {delivery.attempts.length === 0 ? (
            <p className="muted">None yet.</p>
          ) : (
            <ol className="timeline">
              {delivery.attempts.map((attempt) => (
                <li key={attempt.attemptedAt} data-testid="delivery-attempt">
                  <Moment iso={attempt.attemptedAt} /> · {attempt.statusCode ?? 'no answer'} · {attempt.durationMs} ms
                  {attempt.error && <p className="detail small">{attempt.error}</p>}
                  {attempt.responseBody ? (
                    <pre className="mail-text">{attempt.responseBody}</pre>
                  ) : (
                    <p className="muted small">
                      {attempt.responseBody === '' ? 'An empty answer.' : 'No answer kept.'}
                    </p>
                  )}
                </li>
              ))}
            </ol>
          )}
        </div>
      )}
    </QueryView>
  );
}
