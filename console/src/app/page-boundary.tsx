import { Component, type ReactNode } from 'react';

/**
 * A page that could not be shown, most often because its code could not be fetched (offline, or an
 * upgrade replaced the files this tab was loaded with): a way out rather than a blank console. The
 * caller keys it by the path, so that another page from the navigation tries again.
 */
export class PageBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  state = { failed: false };

  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }

  render() {
    if (!this.state.failed) return this.props.children;
    return (
      <div className="state state-error" role="alert">
        <p className="state-title">This page could not be shown</p>
        <p className="state-hint">
          Check your connection and reload; if Mailroom was upgraded since this tab opened, the reload fetches the new
          console.
        </p>
        <button type="button" onClick={() => location.reload()}>
          Reload
        </button>
      </div>
    );
  }
}
