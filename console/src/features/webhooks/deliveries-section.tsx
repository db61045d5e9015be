import { useId, useState } from 'react';
import { Link } from 'react-router';
import { usePermission, type Permission } from '../../api/caller';
import { useReplayDelivery, useWebhookDeliveries, type WebhookDelivery } from '../../api/webhook-deliveries';
import { useWebhookEndpoints } from '../../api/webhook-endpoints';
import { ActionButton } from '../../components/action-button';
import { LiveListView } from '../../components/list-page/live-list-view';
import { useUrlFilters } from '../../components/list-page/url-filters';
import { Moment } from '../../components/moment';
import { Empty, InlineError } from '../../components/states';
import { StatusBadge } from '../../components/status-badge';
import { Cell, Table } from '../../components/table';
import { DeliveryDetails } from './delivery-details';
import { deliveriesUrl, LOGGED_TYPES } from './url-filters';

/** Every delivery of the account's events, newest first, by endpoint and type (docs/delivery-and-deliverability.md#webhooks), with replay. */
export function DeliveriesSection() {
  const { filters, show, filtered } = useUrlFilters(deliveriesUrl);
  const query = useWebhookDeliveries(filters);
  const endpoints = useWebhookEndpoints().data?.endpoints ?? [];
  // docs/api.md#routes: replay sends again, so it is the send scope's, not the keys scope's. A key without it
  // is told once above the list, not in every row's Replay cell.
  const canSend = usePermission('send');
  const ownReasonId = useId();
  const reasonId = canSend.allowed ? undefined : ownReasonId;

  return (
    <section aria-labelledby="deliveries-title">
      <h2 id="deliveries-title">Deliveries</h2>
      <form className="card inline-form" role="search" aria-label="Filter deliveries">
        <label htmlFor="delivery-endpoint">Endpoint</label>
        <select
          id="delivery-endpoint"
          value={filters.endpointId}
          onChange={(event) => show({ ...filters, endpointId: event.target.value, page: 1 })}
        >
          <option value="">All, and messages&apos; own webhooks</option>
          {endpoints.map((endpoint) => (
            <option key={endpoint.id} value={endpoint.id}>
              {endpoint.description ? `${endpoint.description} (${endpoint.url})` : endpoint.url}
            </option>
          ))}
          {/* A link to a deleted endpoint still says what it filters by. */}
          {filters.endpointId && !endpoints.some((endpoint) => endpoint.id === filters.endpointId) && (
            <option value={filters.endpointId}>{filters.endpointId}</option>
          )}
        </select>
        <label htmlFor="delivery-type">Type</label>
        <select
          id="delivery-type"
          value={filters.type}
          onChange={(event) => show({ ...filters, type: event.target.value as typeof filters.type, page: 1 })}
        >
          <option value="">Any type</option>
          {LOGGED_TYPES.map((type) => (
            <option key={type} value={type}>
              {type}
            </option>
          ))}
        </select>
        {filtered && (
          <button type="button" onClick={() => show(deliveriesUrl.cleared(filters, ['endpointId', 'type']))}>
            Clear filters
          </button>
        )}
      </form>
      <LiveListView
        query={query}
        what="webhook deliveries"
        rowsOf={(page) => page.deliveries}
        filtered={filtered}
        noneYet={
          <Empty title="No webhook deliveries yet">Events appear here as they are sent to your endpoints.</Empty>
        }
        noMatch={<Empty title="No deliveries match">Try another endpoint or type.</Empty>}
        noun="deliveries"
        one="delivery"
        onPage={(page) => show({ ...filters, page })}
      >
        {(page) => (
          <>
            {reasonId && (
              <p id={reasonId} className="inline-note">
                {canSend.reason}
              </p>
            )}
            <Table columns={['Event', 'To', 'State', 'Attempts', 'Last response', 'Next retry', '']}>
              {page.deliveries.map((delivery) => (
                <DeliveryRow key={delivery.id} delivery={delivery} canSend={canSend} reasonId={reasonId} />
              ))}
            </Table>
          </>
        )}
      </LiveListView>
    </section>
  );
}

function DeliveryRow({
  delivery,
  canSend,
  reasonId,
}: {
  delivery: WebhookDelivery;
  canSend: Permission;
  reasonId: string | undefined;
}) {
  const replay = useReplayDelivery();
  const last = delivery.attempts.at(-1);
  const [open, setOpen] = useState(false);
  const detailsId = useId();
  return (
    <>
      <tr>
        {/* One element a cell: a narrow screen lays each cell's children out side by side. */}
        <Cell label="Event">
          <span>
            <code>{delivery.type}</code>
            <br />
            <Moment iso={delivery.createdAt} />
            {delivery.messageId && (
              <>
                <br />
                <Link to={`/messages/${delivery.messageId}`} className="small">
                  Its message
                </Link>
              </>
            )}
          </span>
        </Cell>
        <Cell label="To" wrap>
          <span>
            <span className="clamp" title={delivery.url}>
              {delivery.url}
            </span>
            {delivery.endpointId === null && <span className="muted small"> (the message&apos;s own webhook)</span>}
          </span>
        </Cell>
        <Cell label="State">
          <StatusBadge status={delivery.state} />
        </Cell>
        <Cell label="Attempts">{delivery.attempts.length}</Cell>
        <Cell label="Last response" wrap>
          {!last ? (
            <span className="muted">none yet</span>
          ) : (
            <span>
              {last.statusCode ?? 'no answer'}
              {last.error && <span className="detail small"> · {last.error}</span>}
            </span>
          )}
        </Cell>
        <Cell label="Next retry">
          {delivery.nextAttemptAt ? <Moment iso={delivery.nextAttemptAt} /> : <span className="muted">none</span>}
        </Cell>
        <Cell label="Actions">
          <span>
            <button
              type="button"
              className="small-button"
              aria-expanded={open}
              aria-controls={open ? detailsId : undefined}
              onClick={() => setOpen(!open)}
            >
              {open ? 'Hide details' : 'Details'}
            </button>
            <ActionButton
              permission={canSend}
              pending={replay.isPending}
              onClick={() => replay.mutate(delivery.id)}
              className="small-button"
              reasonId={reasonId}
            >
              Replay
            </ActionButton>
            {replay.isSuccess && (
              <span role="status" className="inline-note">
                Queued again.
              </span>
            )}
            <InlineError error={replay.error} />
          </span>
        </Cell>
      </tr>
      {open && (
        <tr id={detailsId}>
          <td colSpan={7}>
            <DeliveryDetails id={delivery.id} />
          </td>
        </tr>
      )}
    </>
  );
}
