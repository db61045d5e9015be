import { useId, type ReactNode, type Ref } from 'react';
import type { Permission } from '../api/caller';

/**
 * A button for an operation the credential may not be allowed: disabled, with the reason shown
 * beside it and tied to it, rather than a request that fails.
 */
export function ActionButton({
  permission,
  onClick,
  pending,
  children,
  type = 'button',
  className,
  expanded,
  reasonId,
  buttonRef,
}: {
  permission: Permission;
  onClick?: () => void;
  pending?: boolean;
  children: ReactNode;
  type?: 'button' | 'submit';
  className?: string;
  /** For a button that shows or hides something: whether it is shown now. */
  expanded?: boolean;
  /** The id of the reason shown once for a group of controls; it is then not repeated beside this one. */
  reasonId?: string;
  buttonRef?: Ref<HTMLButtonElement>;
}) {
  const ownReasonId = useId();
  const describedBy = reasonId ?? ownReasonId;
  return (
    <span className="action">
      <button
        ref={buttonRef}
        type={type}
        className={className}
        onClick={onClick}
        disabled={!permission.allowed || pending}
        aria-describedby={permission.allowed ? undefined : describedBy}
        aria-busy={pending || undefined}
        aria-expanded={expanded}
      >
        {children}
      </button>
      {!permission.allowed && !reasonId && (
        <span id={ownReasonId} className="inline-note">
          {permission.reason}
        </span>
      )}
    </span>
  );
}
