import { useState } from 'react';
import { useSignInMethods } from '../../api/member-session';
import type { SignedOutReason } from '../../api/session';
import { PasswordSignInForm } from '../../components/password-sign-in-form';
import { KeyForm } from './key-form';

type Way = 'key' | 'cookie';

const REASONS: Record<SignedOutReason, Record<Way, string>> = {
  'signed-out': {
    cookie: 'You are signed out; the session has ended.',
    key: 'You are signed out; the credential is forgotten.',
  },
  expired: {
    cookie: 'Your session has ended (it expired, or you were removed or signed out elsewhere). Sign in again.',
    key: 'The API refused the credential (expired, or the key was deleted). Sign in again.',
  },
};

/**
 * Sign-in (docs/teams.md#signing-in): a member's email and password first (with "Forgot your
 * password?"), the identity provider when the API offers one, and "Sign in with a key" for an API
 * key or JWT kept in this tab.
 */
export function SignInPage({ reason, last = null }: { reason: SignedOutReason | null; last?: Way | null }) {
  const [way, setWay] = useState<Way>(last ?? 'cookie');
  // Whether the reader switched ways here: the new form's field then takes the focus (the button pressed is gone).
  const [switched, setSwitched] = useState(false);
  const choose = (next: Way) => {
    setWay(next);
    setSwitched(true);
  };
  const methods = useSignInMethods().data;

  return (
    <main className="sign-in" id="main">
      <section className="card sign-in-card" aria-labelledby="sign-in-title">
        <h1 id="sign-in-title">Mailroom console</h1>
        {reason && <p className="inline-note">{REASONS[reason][last ?? way]}</p>}
        {way === 'cookie' ? (
          <>
            <PasswordSignInForm focus={switched} forgotLink />
            {methods?.oidc && (
              <a className="button" href="/session/oidc">
                Sign in with single sign-on
              </a>
            )}
            <button type="button" className="link-button" onClick={() => choose('key')}>
              Sign in with a key
            </button>
          </>
        ) : (
          <>
            <KeyForm focus={switched} />
            <button type="button" className="link-button" onClick={() => choose('cookie')}>
              Sign in with email and password
            </button>
          </>
        )}
      </section>
    </main>
  );
}
