import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { ApiError } from '../api/client';

/** The four states every view designs besides its data: loading, empty, error, not allowed. */
export function Loading({ what, delayed }: { what: string; delayed?: boolean }) {
  return (
    <div
      className={delayed ? 'state state-loading state-delayed' : 'state state-loading'}
      role="status"
      aria-live="polite"
    >
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

/** Where a "Not found" leads back to. */
export interface WayBack {
  to: string;
  label: string;
}

/**
 * A failed request: the problem's `detail` (docs/architecture.md#the-console). Only a 5xx or a network failure is "went
 * wrong" with a retry; a 4xx is the request's own fault, which the same request would repeat: a
 * 403 is "not allowed", a 404 "not found" with a way back, another 4xx an input problem (the
 * filters in the URL, a search) with the fields it names.
 */
export function Failure({
  error,
  onRetry,
  inputTitle = 'Check the filters',
  back = { to: '/', label: 'Back to the start' },
}: {
  error: Error;
  onRetry?: () => void;
  /** The title of a 4xx answer's state: what the reader should look at. */
  inputTitle?: string;
  back?: WayBack;
}) {
  const status = error instanceof ApiError ? error.status : undefined;
  if (error instanceof ApiError && error.notAllowed) return <NotAllowed detail={error.message} />;
  if (status === 404)
    return (
      <div className="state state-not-found" role="alert">
        <p className="state-title">Not found</p>
        <p className="state-hint">{error.message}</p>
        <p>
          <Link to={back.to}>{back.label}</Link>
        </p>
      </div>
    );
  const inputProblem = status !== undefined && status >= 400 && status < 500;
  return (
    <div className="state state-error" role="alert">
      <p className="state-title">{inputProblem ? inputTitle : 'Something went wrong'}</p>
      <p className="state-hint">{error.message}</p>
      <FieldErrors error={error} />
      {error instanceof ApiError && error.problem?.requestId && (
        <p className="muted small">Request id {error.problem.requestId}</p>
      )}
      {onRetry && !inputProblem && (
        <button type="button" onClick={onRetry}>
          Try again
        </button>
      )}
    </div>
  );
}

/** An action's failure, next to the control that caused it (`id`: for that control's aria-describedby). */
export function InlineError({ error, id }: { error: Error | null; id?: string }) {
  if (!error) return null;
  const notAllowed = error instanceof ApiError && error.notAllowed;
  return (
    <p id={id} className={notAllowed ? 'inline-note' : 'inline-error'} role="alert">
      {notAllowed ? `Not allowed: ${error.message}` : error.message}
      <FieldErrors error={error} />
    </p>
  );
}

/** The fields a 400 names (docs/api.md#errors `errors`), each with what is wrong with it. */
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
