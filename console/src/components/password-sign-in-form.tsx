import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { usePasswordSignIn } from '../api/member-session';
import { InlineError } from './states';

/**
 * A member's email and password (docs/teams.md#signing-in): the API answers with the session
 * cookie, which the browser keeps where no script reads it. A refusal shows the API's detail; a
 * 429 says how long to wait. Shared by sign-in and the end of a password reset, which does not sign in.
 */
export function PasswordSignInForm({
  focus = false,
  forgotLink = false,
  onSignedIn,
}: {
  /** The reader chose this way just now: the email field takes the focus. */
  focus?: boolean;
  /** "Forgot your password?", carrying the address typed so far to the page that mails a link. */
  forgotLink?: boolean;
  /** Called once signed in, for a page the console does not replace by itself on sign-in. */
  onSignedIn?: () => void;
}) {
  const first = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (focus) first.current?.focus();
  }, [focus]);
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<Error | null>(null);
  const [pending, setPending] = useState(false);
  const signIn = usePasswordSignIn();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setPending(true);
    setError(null);
    try {
      await signIn({ email: email.trim(), password });
      onSignedIn?.();
    } catch (failure) {
      setError(failure as Error);
      setPending(false);
    }
  };

  return (
    <form onSubmit={(event) => void submit(event)} aria-label="Member sign-in">
      <label htmlFor="sign-in-email">Email</label>
      <input
        id="sign-in-email"
        ref={first}
        name="email"
        type="email"
        autoComplete="username"
        required
        maxLength={254}
        value={email}
        onChange={(event) => setEmail(event.target.value)}
        aria-invalid={error ? true : undefined}
      />
      <label htmlFor="sign-in-password">Password</label>
      <input
        id="sign-in-password"
        name="password"
        type="password"
        autoComplete="current-password"
        required
        maxLength={256}
        value={password}
        onChange={(event) => setPassword(event.target.value)}
        aria-invalid={error ? true : undefined}
      />
      <InlineError error={error} />
      <button type="submit" className="primary" disabled={pending}>
        {pending ? 'Signing in…' : 'Sign in'}
      </button>
      {forgotLink && (
        <Link className="forgot-link" to="/password-reset" state={{ email: email.trim() }}>
          Forgot your password?
        </Link>
      )}
    </form>
  );
}
