import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Link, useLocation } from 'react-router';
import { requestPasswordReset } from '../../api/password-reset';
import { Address } from '../../components/address';
import { InlineError } from '../../components/states';

/** How long a mailed link works (docs/teams.md#password-reset). */
const VALID_MINUTES = 30;
const MAX_EMAIL = 254;

/** The address typed on sign-in before "Forgot your password?", when the link carried one. */
function typedAtSignIn(state: unknown): string {
  const email = (state as { email?: unknown } | null)?.email;
  return typeof email === 'string' ? email : '';
}

/**
 * "Forgot your password?" (docs/teams.md#password-reset), open to anyone: the address gets a link
 * by mail if it is a member's. The API answers alike for any address, and so does this page: the
 * confirmation says what happens if the address is a member's, never whether it is.
 */
export function RequestResetPage() {
  const [email, setEmail] = useState(typedAtSignIn(useLocation().state));
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [error, setError] = useState<Error | null>(null);
  const [pending, setPending] = useState(false);
  const field = useRef<HTMLInputElement>(null);
  const sent = useRef<HTMLDivElement>(null);
  // The focus follows what the page asks for: the address, then the confirmation that replaces the form.
  useEffect(() => {
    (sentTo ? sent : field).current?.focus();
  }, [sentTo]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    // The field is required: a browser asks for an address before this runs.
    const address = email.trim();
    setPending(true);
    setError(null);
    try {
      await requestPasswordReset(address);
      setSentTo(address);
    } catch (failure) {
      // The API's refusal (an address it cannot take) is the field's; the reader corrects it there.
      setError(failure as Error);
      field.current?.focus();
    }
    setPending(false);
  };

  return (
    <main className="sign-in" id="main">
      <section className="card sign-in-card" aria-labelledby="reset-title">
        <h1 id="reset-title">Reset your password</h1>
        {sentTo ? (
          <>
            <div className="inline-success" role="status" tabIndex={-1} ref={sent}>
              <p>
                If{' '}
                <strong>
                  <Address value={sentTo} />
                </strong>{' '}
                belongs to a member, a link valid {VALID_MINUTES} minutes is on its way.
              </p>
              <p className="muted small">
                It works once, and only the latest link asked for works. Nothing in a few minutes? Look in the spam
                folder, or ask again.
              </p>
            </div>
            <button type="button" className="link-button" onClick={() => setSentTo(null)}>
              Ask again
            </button>
          </>
        ) : (
          <form onSubmit={(event) => void submit(event)} aria-label="Ask for a password reset link">
            <p className="muted">Enter the address you sign in with: we mail it a link to choose a new password.</p>
            <label htmlFor="reset-email">Email</label>
            <input
              id="reset-email"
              ref={field}
              name="email"
              type="email"
              autoComplete="username"
              required
              maxLength={MAX_EMAIL}
              value={email}
              onChange={(event) => setEmail(event.target.value)}
              aria-describedby={error ? 'reset-email-error' : undefined}
              aria-invalid={error ? true : undefined}
            />
            <InlineError error={error} id="reset-email-error" />
            <button type="submit" className="primary" disabled={pending}>
              {pending ? 'Sending…' : 'Email me a link'}
            </button>
          </form>
        )}
        <p>
          <Link to="/">Back to sign-in</Link>
        </p>
      </section>
    </main>
  );
}
