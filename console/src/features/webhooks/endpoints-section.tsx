import { useState } from 'react';
import { usePermission } from '../../api/caller';
import { useCreateEndpoint, useWebhookEndpoints } from '../../api/webhook-endpoints';
import { ActionButton } from '../../components/action-button';
import { CopyButton } from '../../components/copy-button';
import { QueryView } from '../../components/query-view';
import { Empty } from '../../components/states';
import { EndpointCard } from './endpoint-card';
import { EndpointForm } from './endpoint-form';

/** The endpoints (docs/delivery-and-deliverability.md#webhooks): listing needs `read`; adding, like every change, needs `keys`. */
export function EndpointsSection() {
  const query = useWebhookEndpoints();
  const canManage = usePermission('keys');
  const create = useCreateEndpoint();
  const [adding, setAdding] = useState(false);

  return (
    <section aria-labelledby="endpoints-title">
      <header className="page-header">
        <h2 id="endpoints-title">Endpoints</h2>
        {!adding && (
          <ActionButton
            permission={canManage}
            onClick={() => {
              // The last endpoint's secret banner goes: it would read as this one's.
              create.reset();
              setAdding(true);
            }}
            className="primary"
          >
            Add endpoint
          </ActionButton>
        )}
      </header>
      {create.data && (
        <div className="card created-key" role="status">
          <p>
            Endpoint added:{' '}
            <strong className="clamp" title={create.data.url}>
              {create.data.description || create.data.url}
            </strong>
            Copy its signing secret now: it is shown here only once (Reveal shows it later to a key with the keys
            scope).
          </p>
          <code className="wrap secret" data-testid="new-endpoint-secret">
            {create.data.secret}
          </code>{' '}
          <CopyButton value={create.data.secret} label="the new endpoint's signing secret" />
          <button type="button" onClick={() => create.reset()}>
            Done
          </button>
        </div>
      )}
      {adding && (
        <EndpointForm
          label="Add a webhook endpoint"
          submitLabel="Add endpoint"
          permission={canManage}
          pending={create.isPending}
          error={create.error}
          onSubmit={({ url, description, events }) =>
            create.mutate({ url, events, ...(description && { description }) }, { onSuccess: () => setAdding(false) })
          }
          onCancel={() => {
            setAdding(false);
            create.reset();
          }}
        />
      )}
      <QueryView query={query} what="webhook endpoints">
        {({ endpoints }) =>
          endpoints.length === 0 ? (
            <Empty title="No webhook endpoints yet">
              Add one to receive message, recipient, domain, suppression and inbound events as they happen.
            </Empty>
          ) : (
            endpoints.map((endpoint) => <EndpointCard key={endpoint.id} endpoint={endpoint} />)
          )
        }
      </QueryView>
    </section>
  );
}
