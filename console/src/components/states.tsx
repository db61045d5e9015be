import type { ReactNode } from 'react';
import { ApiError } from '../api/client';

/** The four states every view designs besides its data: loading, empty, error, not allowed. */
export function Loading({ what }: { what: string }) {
  return (
    <div className="state state-loading" role="status" aria-live="polite">
      <span className="spinner" aria-hidden="true" />
      Loading {what}…
    </div>
  );
}

export function Empty({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="state state-empty">
      <p className="state-title">{title}</p>
      {children && <div className="state-hint">{children}</div>}
    </div>
  );
}

export function NotAllowed({ detail }: { detail: string }) {
  return (
    <div className="state state-not-allowed">
      <p className="state-title">Not allowed</p>
      <p className="state-hint">{detail}</p>
    </div>
  );
}

/** A failed request: the problem's `detail` (SPEC §14); a 403 is "not allowed", not a failure. */
export function Failure({ error, onRetry }: { error: Error; onRetry?: () => void }) {
  if (error instanceof ApiError && error.notAllowed) return <NotAllowed detail={error.message} />;
  return (
    <div className="state state-error" role="alert">
      <p className="state-title">Something went wrong</p>
      <p className="state-hint">{error.message}</p>
      <FieldErrors error={error} />
      {error instanceof ApiError && error.problem?.requestId && (
        <p className="muted small">Request id {error.problem.requestId}</p>
      )}
      {onRetry && (
        <button type="button" onClick={onRetry}>
          Try again
        </button>
      )}
    </div>
  );
}

/** An action's failure, next to the control that caused it. */
export function InlineError({ error }: { error: Error | null }) {
  if (!error) return null;
  const notAllowed = error instanceof ApiError && error.notAllowed;
  return (
    <p className={notAllowed ? 'inline-note' : 'inline-error'} role="alert">
      {notAllowed ? `Not allowed: ${error.message}` : error.message}
      <FieldErrors error={error} />
    </p>
  );
}

/** The fields a 400 names (SPEC §3 `errors`), each with what is wrong with it. */
function FieldErrors({ error }: { error: Error }) {
  const fields = error instanceof ApiError ? (error.problem?.errors ?? []) : [];
  if (fields.length === 0) return null;
  return (
    <span className="field-errors">
      {fields.map((field) => (
        <span key={field.field} className="field-error">
          <code>{field.field}</code>: {field.message}
        </span>
      ))}
    </span>
  );
}
