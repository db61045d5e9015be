import { useState } from 'react';
import type { Permission } from '../../api/caller';
import { useEndpointSecret, useRotateSecret } from '../../api/webhook-endpoints';
import { ActionButton } from '../../components/action-button';
import { ConfirmButton } from '../../components/confirm-button';
import { CopyButton } from '../../components/copy-button';
import { Failure, Loading } from '../../components/states';

/** The endpoint's signing secret: fetched only when revealed (scope `keys`), and rotated. */
export function SecretPanel({
  endpointId,
  permission,
  reasonId,
}: {
  endpointId: string;
  permission: Permission;
  /** Where the card says why its controls are disabled. */
  reasonId?: string;
}) {
  const [revealed, setRevealed] = useState(false);
  const secret = useEndpointSecret(endpointId, revealed);
  const rotate = useRotateSecret(endpointId);

  return (
    <div className="secret-panel">
      <div className="form-actions wrap-actions">
        <ActionButton
          permission={permission}
          onClick={() => setRevealed(!revealed)}
          expanded={revealed}
          reasonId={reasonId}
        >
          {revealed ? 'Hide secret' : 'Reveal secret'}
        </ActionButton>
        <ConfirmButton
          permission={permission}
          pending={rotate.isPending}
          onConfirm={() => rotate.mutate(undefined, { onSuccess: () => setRevealed(true) })}
          reasonId={reasonId}
          question="Rotate the secret? For 24 hours each request carries two signatures, by the new and the old secret; then by the new one only."
        >
          Rotate secret
        </ConfirmButton>
      </div>
      {rotate.isSuccess && (
        <p role="status" className="inline-note">
          Secret rotated. Requests are signed with both secrets for the next 24 hours: switch your receiver to the new
          one within that time.
        </p>
      )}
      {rotate.error && <Failure error={rotate.error} />}
      {revealed &&
        (secret.isPending ? (
          <Loading what="the secret" />
        ) : secret.isError ? (
          <Failure error={secret.error} onRetry={() => void secret.refetch()} />
        ) : (
          <p>
            <code className="wrap secret" data-testid="endpoint-secret">
              {secret.data.secret}
            </code>{' '}
            <CopyButton value={secret.data.secret} label="the endpoint's signing secret" />
          </p>
        ))}
    </div>
  );
}
