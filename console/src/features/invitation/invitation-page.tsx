import { useState, type FormEvent } from 'react';
import { useNavigate, useParams } from 'react-router';
import { ApiError } from '../../api/client';
import { useAcceptInvitation } from '../../api/member-session';
import { MIN_PASSWORD, NewPasswordField, TOO_SHORT } from '../../components/new-password-field';
import { InlineError } from '../../components/states';

const MAX_NAME = 100;

const GONE = 'This invitation was used, has expired or was withdrawn. Ask whoever invited you for a new one.';

/**
 * Where an invitation mail's link leads (docs/teams.md#invitations), signed out: the member chooses
 * a password (and a name), is signed in, and lands on the Overview.
 */
export function InvitationPage() {
  const { token = '' } = useParams();
  const accept = useAcceptInvitation(token);
  const navigate = useNavigate();
  const [password, setPassword] = useState('');
  const [name, setName] = useState('');
  const [error, setError] = useState<Error | null>(null);
  const [gone, setGone] = useState(false);
  const [pending, setPending] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (password.length < MIN_PASSWORD) return setError(new Error(TOO_SHORT));
    setPending(true);
    setError(null);
    try {
      await accept({ password, name: name.trim() || undefined });
      // The console's start, which opens on the Overview.
      void navigate('/', { replace: true });
    } catch (failure) {
      if (failure instanceof ApiError && failure.status === 404) setGone(true);
      else setError(failure as Error);
      setPending(false);
    }
  };

  return (
    <main className="sign-in" id="main">
      <section className="card sign-in-card" aria-labelledby="invitation-title">
        <h1 id="invitation-title">Join Mailroom</h1>
        {gone ? (
          <div className="state state-not-found" role="alert">
            <p className="state-title">Invitation not valid</p>
            <p className="state-hint">{GONE}</p>
            <p>
              <a href="/console/">Go to sign-in</a>
            </p>
          </div>
        ) : (
          <form onSubmit={(event) => void submit(event)} aria-label="Accept the invitation">
            <p className="muted">Choose the password you will sign in with.</p>
            <NewPasswordField
              id="invitation-password"
              label="Password"
              value={password}
              onChange={setPassword}
              errorId={error ? 'invitation-error' : undefined}
            />
            <label htmlFor="invitation-name">Name (optional)</label>
            <input
              id="invitation-name"
              name="name"
              autoComplete="name"
              maxLength={MAX_NAME}
              value={name}
              onChange={(event) => setName(event.target.value)}
            />
            <InlineError error={error} id="invitation-error" />
            <button type="submit" className="primary" disabled={pending}>
              {pending ? 'Joining…' : 'Set password and sign in'}
            </button>
          </form>
        )}
      </section>
    </main>
  );
}
