import { useState, type FormEvent, type ReactNode } from 'react';
import { NavLink } from 'react-router';
import { useCaller, useMemberSession, type MemberSession } from '../api/caller';
import { signOut, useSwitchAccount } from '../api/member-session';
import { NAVIGATION } from './navigation';
import { InlineError } from '../components/states';

/**
 * A member of several accounts moves to another (docs/teams.md#several-accounts): chosen, then
 * switched with the button, so that moving through the list with the arrow keys switches nothing.
 */
function AccountSwitch({ member }: { member: MemberSession }) {
  const current = member.account.userId;
  const [choice, setChoice] = useState(current);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<Error | null>(null);
  const switchAccount = useSwitchAccount();
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await switchAccount(choice);
    } catch (failure) {
      setError(failure as Error);
    } finally {
      setBusy(false);
    }
  };
  return (
    <form className="account-switch" onSubmit={(event) => void submit(event)}>
      <label>
        <span className="visually-hidden">Account</span>
        <select value={choice} onChange={(event) => setChoice(event.target.value)} disabled={busy}>
          {member.accounts.map((account) => (
            <option key={account.userId} value={account.userId}>
              {account.userId} ({account.role})
            </option>
          ))}
        </select>
      </label>
      <button type="submit" disabled={busy || choice === current}>
        {busy ? 'Switching…' : 'Switch'}
      </button>
      <InlineError error={error} />
    </form>
  );
}

/** Who is signed in: a member's address, role and account; a key's or JWT's account and kind. */
function Who() {
  const caller = useCaller().data;
  const member = useMemberSession().data;
  if (member)
    return (
      <span className="muted small who-member" data-testid="who">
        <span>{member.member.email}</span>
        <span>· {member.role}</span>
        <span>· account {member.account.userId}</span>
        {member.accounts.length > 1 && <AccountSwitch key={member.account.userId} member={member} />}
      </span>
    );
  if (!caller || caller.credential === 'session') return null;
  return (
    <span className="muted small" title={`Scopes: ${caller.scopes.join(', ')}`} data-testid="who">
      {caller.userId} · {caller.credential === 'jwt' ? 'JWT' : `API key (${caller.scopes.join(', ')})`}
    </span>
  );
}

export function Layout({ children }: { children: ReactNode }) {
  return (
    <div className="shell">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="topbar">
        <span className="brand">Mailroom</span>
        <nav aria-label="Console" className="nav">
          {NAVIGATION.map((item) => (
            <NavLink key={item.path} to={item.path}>
              {item.label}
            </NavLink>
          ))}
        </nav>
        <div className="who">
          <Who />
          <button type="button" onClick={() => void signOut()}>
            Sign out
          </button>
        </div>
      </header>
      <main id="main" tabIndex={-1}>
        {children}
      </main>
    </div>
  );
}
