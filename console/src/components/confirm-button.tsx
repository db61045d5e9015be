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
  const yes = useRef<HTMLButtonElement>(null);
  /** Whether the question was taken back (No, Escape), which returns the focus to the button. */
  const takenBack = useRef(false);
  // The control that had the focus is gone once the question shows or goes: the focus moves to
  // its replacement, once that is rendered, so a keyboard user is not left at the top of the page.
  useEffect(() => {
    if (asking) yes.current?.focus();
    else if (takenBack.current) {
      takenBack.current = false;
      button.current?.focus();
    }
  }, [asking]);
  const takeBack = () => {
    takenBack.current = true;
    setAsking(false);
  };
  // On each of its buttons, the only things in the question that take the focus.
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
    <span className="confirm" role="group" aria-label={question}>
      <span className="confirm-question">{question}</span>
      <button
        type="button"
        className="danger"
        ref={yes}
        onKeyDown={onKeyDown}
        onClick={() => {
          setAsking(false);
          onConfirm();
        }}
      >
        Yes, {typeof children === 'string' ? children.toLowerCase() : 'go ahead'}
      </button>
      <button type="button" onClick={takeBack} onKeyDown={onKeyDown}>
        No
      </button>
    </span>
  );
}
