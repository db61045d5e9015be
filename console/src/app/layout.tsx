import type { ReactNode } from 'react';
import { NavLink } from 'react-router';
import { useCaller, useMemberSession } from '../api/caller';
import { signOut } from '../api/member-session';
import { NAVIGATION } from './navigation';

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
