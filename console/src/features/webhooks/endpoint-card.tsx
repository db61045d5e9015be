import { useId, useState } from 'react';
import { Link } from 'react-router';
import { usePermission, type Permission } from '../../api/caller';
import {
  disabledReasonText,
  useDeleteEndpoint,
  useTestEndpoint,
  useUpdateEndpoint,
  type WebhookEndpoint,
} from '../../api/webhook-endpoints';
import { ActionButton } from '../../components/action-button';
import { ConfirmButton } from '../../components/confirm-button';
import { Moment } from '../../components/moment';
import { InlineError } from '../../components/states';
import { StatusBadge } from '../../components/status-badge';
import { EndpointForm } from './endpoint-form';
import { SecretPanel } from './secret-panel';
import { deliveriesUrl } from './url-filters';

/** One endpoint: what it receives, whether it is enabled and why not, and every change to it. */
export function EndpointCard({ endpoint }: { endpoint: WebhookEndpoint }) {
  const canManage = usePermission('keys');
  const update = useUpdateEndpoint(endpoint.id);
  const remove = useDeleteEndpoint(endpoint.id);
  const test = useTestEndpoint(endpoint.id);
  const [editing, setEditing] = useState(false);
  const titleId = `endpoint-${endpoint.id}`;
  // A key without the keys scope sees the reason once for the card, not beside each of its six controls.
  const ownReasonId = useId();
  const reasonId = canManage.allowed ? undefined : ownReasonId;
  // The API refuses to test a disabled endpoint (409); say so before the press.
  const canTest: Permission = !canManage.allowed
    ? canManage
    : endpoint.enabled
      ? { allowed: true }
      : { allowed: false, reason: 'Enable it to send a test.' };
  const toggleEnabled = () => update.mutate({ enabled: !endpoint.enabled });

  return (
    <article className="card endpoint" aria-labelledby={titleId}>
      <header className="page-header">
        {/* A URL may be 2,000 characters: a few lines of it, all of it on hover and in Edit. */}
        <h3 id={titleId} className="clamp" title={endpoint.url}>
          {endpoint.url}
        </h3>
        <StatusBadge status={endpoint.enabled ? 'enabled' : 'disabled'} />
      </header>
      {endpoint.description && <p>{endpoint.description}</p>}
      {!endpoint.enabled && <p className="inline-note">{disabledReasonText(endpoint.disabledReason)}</p>}
      <p className="small">
        Receives:{' '}
        {endpoint.events.length === 0 ? 'every event type' : <span className="wrap">{endpoint.events.join(', ')}</span>}
        <span className="muted">
          {' '}
          · added <Moment iso={endpoint.createdAt} />
        </span>
      </p>
      {reasonId && (
        <p id={reasonId} className="inline-note">
          {canManage.reason}
        </p>
      )}
      {editing ? (
        <EndpointForm
          initial={endpoint}
          label={`Edit ${endpoint.url}`}
          submitLabel="Save"
          permission={canManage}
          pending={update.isPending}
          error={update.error}
          onSubmit={(fields) => update.mutate(fields, { onSuccess: () => setEditing(false) })}
          onCancel={() => {
            setEditing(false);
            update.reset();
          }}
        />
      ) : (
        <div className="form-actions wrap-actions">
          <ActionButton permission={canManage} onClick={() => setEditing(true)} reasonId={reasonId}>
            Edit
          </ActionButton>
          <ActionButton permission={canManage} pending={update.isPending} onClick={toggleEnabled} reasonId={reasonId}>
            {endpoint.enabled ? 'Disable' : 'Enable'}
          </ActionButton>
          <ActionButton permission={canTest} pending={test.isPending} onClick={() => test.mutate()} reasonId={reasonId}>
            Send test
          </ActionButton>
          <Link to={deliveriesUrl.search({ endpointId: endpoint.id })}>Its deliveries</Link>
          <ConfirmButton
            permission={canManage}
            pending={remove.isPending}
            onConfirm={() => remove.mutate()}
            question={`Delete ${endpoint.url}? It is sent nothing more, and its delivery log goes with it.`}
            reasonId={reasonId}
          >
            Delete
          </ConfirmButton>
        </div>
      )}
      {!editing && <InlineError error={update.error} />}
      <InlineError error={test.error ?? remove.error} />
      {test.data && (
        <p role="status" className="inline-success">
          Test event sent (<code>{test.data.eventId}</code>): it is on its way.{' '}
          <Link to={deliveriesUrl.search({ endpointId: endpoint.id, type: 'endpoint.test' })}>Show its delivery</Link>
        </p>
      )}
      <SecretPanel endpointId={endpoint.id} permission={canManage} reasonId={reasonId} />
    </article>
  );
}
