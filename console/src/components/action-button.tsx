import { useId, type ReactNode } from 'react';
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
}: {
  permission: Permission;
  onClick?: () => void;
  pending?: boolean;
  children: ReactNode;
  type?: 'button' | 'submit';
  className?: string;
}) {
  const reasonId = useId();
  return (
    <span className="action">
      <button
        type={type}
        className={className}
        onClick={onClick}
        disabled={!permission.allowed || pending}
        aria-describedby={permission.allowed ? undefined : reasonId}
        aria-busy={pending || undefined}
      >
        {children}
      </button>
      {!permission.allowed && (
        <span id={reasonId} className="inline-note">
          {permission.reason}
        </span>
      )}
    </span>
  );
}
