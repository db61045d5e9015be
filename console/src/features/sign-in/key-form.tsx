import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useSignIn } from '../../api/caller';
import { InlineError } from '../../components/states';

/** A pasted API key or JWT, tried against the API before it is kept for this tab (sessionStorage). */
/** `focus`: the reader chose this way just now; its field takes the focus. */
export function KeyForm({ focus = false }: { focus?: boolean }) {
  const first = useRef<HTMLTextAreaElement>(null);
  useEffect(() => {
    if (focus) first.current?.focus();
  }, [focus]);
  const [value, setValue] = useState('');
  const [error, setError] = useState<Error | null>(null);
  const [pending, setPending] = useState(false);
  const signIn = useSignIn();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const token = value.trim().replace(/^Bearer\s+/i, '');
    if (!token) return setError(new Error('Paste an API key (mr_…) or a JWT.'));
    setPending(true);
    setError(null);
    try {
      await signIn(token);
    } catch (failure) {
      setError(failure as Error);
      setPending(false);
    }
  };

  return (
    <form onSubmit={(event) => void submit(event)} aria-label="Key sign-in">
      <label htmlFor="credential">API key or JWT</label>
      <textarea
        id="credential"
        name="credential"
        rows={3}
        autoComplete="off"
        spellCheck={false}
        ref={first}
        value={value}
        onChange={(event) => setValue(event.target.value)}
        aria-describedby="credential-hint"
        aria-invalid={error ? true : undefined}
      />
      <p id="credential-hint" className="muted small">
        Kept in this tab only (sessionStorage): gone when the tab closes or you sign out.
      </p>
      <InlineError error={error} />
      <button type="submit" className="primary" disabled={pending}>
        {pending ? 'Signing in…' : 'Sign in'}
      </button>
    </form>
  );
}
