import { useEffect, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import type { Permission } from '../api/caller';
import { ActionButton } from './action-button';

/**
 * A destructive action in two steps: the first press asks, the second does it. No or Escape takes
 * the question back, and the focus returns to the button that asked it.
 */
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
  const button = useRef<HTMLButtonElement>(null);
  const [refocus, setRefocus] = useState(false);
  // The button is rendered again once the question goes; focus it then, not before.
  useEffect(() => {
    if (!asking && refocus) {
      button.current?.focus();
      setRefocus(false);
    }
  }, [asking, refocus]);
  const takeBack = () => {
    setAsking(false);
    setRefocus(true);
  };
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key !== 'Escape') return;
    event.stopPropagation();
    takeBack();
  };
  if (!asking)
    return (
      <ActionButton
        permission={permission}
        onClick={() => setAsking(true)}
        className="danger-quiet"
        pending={pending}
        reasonId={reasonId}
        buttonRef={button}
      >
        {children}
      </ActionButton>
    );
  return (
    <span className="confirm" role="group" aria-label={question} onKeyDown={onKeyDown}>
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
      <button type="button" onClick={takeBack}>
        No
      </button>
    </span>
  );
}
