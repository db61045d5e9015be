import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { ApiError } from '../../api/client';
import { resetPassword } from '../../api/password-reset';
import { MIN_PASSWORD, NewPasswordField, TOO_SHORT } from '../../components/new-password-field';
import { PasswordSignInForm } from '../../components/password-sign-in-form';
import { InlineError } from '../../components/states';

type Outcome = 'form' | 'changed' | 'gone';

const TITLES: Record<Outcome, string> = {
  form: 'Choose a new password',
  changed: 'Password changed',
  gone: 'Choose a new password',
};

/**
 * Where a password reset mail's link leads (docs/teams.md#password-reset), open to anyone: the
 * member chooses a new password. The reset ends every session of the member and signs in nobody,
 * so the page then offers sign-in with the new password; a used, expired or forged link says so
 * and leads to asking for a new one.
 */
export function NewPasswordPage() {
  const { token = '' } = useParams();
  const navigate = useNavigate();
  const [password, setPassword] = useState('');
  const [error, setError] = useState<Error | null>(null);
  const [outcome, setOutcome] = useState<Outcome>('form');
  const [pending, setPending] = useState(false);
  const field = useRef<HTMLInputElement>(null);
  const result = useRef<HTMLDivElement>(null);
  // The field at first; then what replaced the form, read first (the sign-in form follows it).
  useEffect(() => {
    (outcome === 'form' ? field : result).current?.focus();
  }, [outcome]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (password.length < MIN_PASSWORD) {
      setError(new Error(TOO_SHORT));
      return field.current?.focus();
    }
    setPending(true);
    setError(null);
    try {
      await resetPassword(token, password);
      setOutcome('changed');
    } catch (failure) {
      if (failure instanceof ApiError && failure.status === 404) setOutcome('gone');
      else {
        setError(failure as Error);
        field.current?.focus();
      }
    }
    setPending(false);
  };

  return (
    <main className="sign-in" id="main">
      <section className="card sign-in-card" aria-labelledby="new-password-title">
        <h1 id="new-password-title">{TITLES[outcome]}</h1>
        {outcome === 'changed' && (
          <>
            <div className="inline-success" role="status" tabIndex={-1} ref={result}>
              <p>Your password is changed; sign in with it.</p>
              <p className="muted small">Every session you had in this account has ended, on every device.</p>
            </div>
            <PasswordSignInForm onSignedIn={() => void navigate('/', { replace: true })} />
          </>
        )}
        {outcome === 'gone' && (
          <>
            <div className="state state-not-found" role="alert" tabIndex={-1} ref={result}>
              <p className="state-title">Link not valid</p>
              <p className="state-hint">This link was used, has expired or is not a link we sent.</p>
              <p>
                <Link to="/password-reset">Ask for a new link</Link>
              </p>
            </div>
            <p>
              <Link to="/">Back to sign-in</Link>
            </p>
          </>
        )}
        {outcome === 'form' && (
          <>
            <form onSubmit={(event) => void submit(event)} aria-label="Password reset">
              <p className="muted">
                Every session you have in this account ends when you set it; then sign in with the new password.
              </p>
              <NewPasswordField
                id="new-password"
                label="New password"
                ref={field}
                value={password}
                onChange={setPassword}
                errorId={error ? 'new-password-error' : undefined}
              />
              <InlineError error={error} id="new-password-error" />
              <button type="submit" className="primary" disabled={pending}>
                {pending ? 'Setting the password…' : 'Set password'}
              </button>
            </form>
            <p>
              <Link to="/">Back to sign-in</Link>
            </p>
          </>
        )}
      </section>
    </main>
  );
}
