import type { Ref } from 'react';

/** A member's password, as the API takes it (docs/teams.md#members-and-roles). */
export const MIN_PASSWORD = 12;
export const MAX_PASSWORD = 256;

export const TOO_SHORT = `The password needs at least ${MIN_PASSWORD} characters.`;

/**
 * The field where a member chooses a password (an invitation, a password reset), with the same
 * bounds and hint on both pages. `errorId` names the message of a refusal, read with the hint.
 */
export function NewPasswordField({
  id,
  label,
  value,
  onChange,
  errorId,
  ref,
}: {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  errorId?: string;
  ref?: Ref<HTMLInputElement>;
}) {
  return (
    <>
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        ref={ref}
        name="password"
        type="password"
        autoComplete="new-password"
        required
        minLength={MIN_PASSWORD}
        maxLength={MAX_PASSWORD}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        aria-describedby={errorId ? `${id}-hint ${errorId}` : `${id}-hint`}
        aria-invalid={errorId ? true : undefined}
      />
      <p id={`${id}-hint`} className="muted small">
        {MIN_PASSWORD} to {MAX_PASSWORD} characters; a few words you remember make a good one.
      </p>
    </>
  );
}
