import { useId } from 'react';
import { usePermission } from '../../api/caller';
import { useSucceededSince } from '../../api/later-success';
import { useSetReceiving, type Domain } from '../../api/domains';
import { InlineError } from '../../components/states';

/**
 * Receiving on or off (docs/inbound.md) as a switch: a pending domain and a name another user receives
 * for are the API's 409s, shown as their detail; a key without `send` sees it disabled and why.
 */
export function ReceivingToggle({ domain }: { domain: Domain }) {
  const set = useSetReceiving();
  const canSend = usePermission('send');
  const reasonId = useId();
  // A 409 here is stale once another action (adding, verifying, another switch) has succeeded.
  const stale = useSucceededSince(set.submittedAt);
  return (
    <div className="receiving">
      <label className="check">
        <input
          type="checkbox"
          role="switch"
          checked={domain.receiving}
          disabled={!canSend.allowed || set.isPending}
          aria-describedby={canSend.allowed ? undefined : reasonId}
          onChange={() => set.mutate({ id: domain.id, receiving: !domain.receiving })}
        />
        Receive mail
      </label>{' '}
      <span className="muted small">
        {domain.receiving
          ? 'On: mail to any address at this domain is listed under Inbound once its MX record is published.'
          : 'Off.'}
      </span>
      {!canSend.allowed && (
        <span id={reasonId} className="inline-note">
          {canSend.reason}
        </span>
      )}
      <InlineError error={stale ? null : set.error} />
    </div>
  );
}
