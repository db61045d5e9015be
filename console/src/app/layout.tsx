import type { ReactNode } from 'react';
import { NavLink } from 'react-router';
import { useCaller } from '../api/caller';
import { session } from '../api/session';
import { NAVIGATION } from './navigation';

export function Layout({ children }: { children: ReactNode }) {
  const caller = useCaller().data;
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
          {caller && (
            <span className="muted small" title={`Scopes: ${caller.scopes.join(', ')}`}>
              {caller.userId} · {caller.credential === 'jwt' ? 'JWT' : `API key (${caller.scopes.join(', ')})`}
            </span>
          )}
          <button type="button" onClick={session.signOut}>
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
