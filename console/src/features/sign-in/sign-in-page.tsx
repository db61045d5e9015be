import { useState, type FormEvent } from 'react';
import { useSignIn } from '../../api/caller';
import type { SignedOutReason } from '../../api/session';

const REASONS: Record<SignedOutReason, string> = {
  'signed-out': 'You are signed out; the credential is forgotten.',
  expired: 'The API refused the credential (expired, or the key was deleted). Sign in again.',
};

/** A pasted API key or JWT, tried against the API before it is kept for this tab. */
export function SignInPage({ reason }: { reason: SignedOutReason | null }) {
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const signIn = useSignIn();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const token = value.trim().replace(/^Bearer\s+/i, '');
    if (!token) return setError('Paste an API key (mr_…) or a JWT.');
    setPending(true);
    setError(null);
    try {
      await signIn(token);
    } catch (failure) {
      setError((failure as Error).message);
      setPending(false);
    }
  };

  return (
    <main className="sign-in" id="main">
      <form className="card sign-in-card" onSubmit={(event) => void submit(event)} aria-labelledby="sign-in-title">
        <h1 id="sign-in-title">Mailroom console</h1>
        {reason && <p className="inline-note">{REASONS[reason]}</p>}
        <label htmlFor="credential">API key or JWT</label>
        <textarea
          id="credential"
          name="credential"
          rows={3}
          autoComplete="off"
          spellCheck={false}
          value={value}
          onChange={(event) => setValue(event.target.value)}
          aria-describedby="credential-hint"
          aria-invalid={error ? true : undefined}
        />
        <p id="credential-hint" className="muted small">
          Kept in this tab only (sessionStorage): gone when the tab closes or you sign out.
        </p>
        {error && (
          <p className="inline-error" role="alert">
            {error}
          </p>
        )}
        <button type="submit" className="primary" disabled={pending}>
          {pending ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
    </main>
  );
}
