import { useState, type ReactNode } from 'react';
import type { Permission } from '../api/caller';
import { ActionButton } from './action-button';

/** A destructive action in two steps: the first press asks, the second does it. */
export function ConfirmButton({
  permission,
  onConfirm,
  pending,
  children,
  question,
  reasonId,
}: {
  permission: Permission;
  onConfirm: () => void;
  pending?: boolean;
  children: ReactNode;
  question: string;
  /** As ActionButton's: the id of a reason shown once for a group of controls. */
  reasonId?: string;
}) {
  const [asking, setAsking] = useState(false);
  if (!asking)
    return (
      <ActionButton
        permission={permission}
        onClick={() => setAsking(true)}
        className="danger-quiet"
        pending={pending}
        reasonId={reasonId}
      >
        {children}
      </ActionButton>
    );
  return (
    <span className="confirm" role="group" aria-label={question}>
      <span className="confirm-question">{question}</span>
      <button
        type="button"
        className="danger"
        autoFocus
        onClick={() => {
          setAsking(false);
          onConfirm();
        }}
      >
        Yes, {typeof children === 'string' ? children.toLowerCase() : 'go ahead'}
      </button>
      <button type="button" onClick={() => setAsking(false)}>
        No
      </button>
    </span>
  );
}
