import { escapeHtml, PlainPages } from '../../platform/http/plain-page';

/**
 * The pages a refused OIDC sign-in ends on (docs/teams.md#signing-in-with-oidc): plain HTML, no
 * script at all, a style allowed by its hash alone, a link back to the console.
 */

const PLAIN = new PlainPages({ formAction: "'none'" });

/** Never cached, nothing loaded but the page's own style, never framed, no Referer (the callback URL holds the code). */
export const OIDC_PAGE_HEADERS: Record<string, string> = {
  'Content-Type': 'text/html; charset=utf-8',
  ...PLAIN.headers,
};

/** Why the sign-in ended without a session: each has its own page. */
export type OidcRefusal = 'no invitation' | 'unverified' | 'failed' | 'provider unreachable';

const PAGES: Record<OidcRefusal, { status: number; title: string; text: string }> = {
  'no invitation': {
    status: 403,
    title: 'No invitation for this address',
    text: 'The address your provider gave is not a member of any account here, and has no invitation. Ask an owner or an admin of the account to invite it.',
  },
  unverified: {
    status: 403,
    title: 'Address not verified',
    text: 'Your provider does not vouch for this address (it is not verified there), so it cannot sign you in here. Verify it with the provider, or sign in with your password.',
  },
  failed: {
    status: 400,
    title: 'The sign-in failed',
    text: 'The answer from your provider could not be checked: the sign-in may have taken too long, been used already or been started in another browser. Please try again.',
  },
  'provider unreachable': {
    status: 502,
    title: 'The sign-in provider is not answering',
    text: 'The sign-in provider could not be reached. Please try again later, or sign in with your password.',
  },
};

/** The status and HTML of the page for `refusal`. */
export function oidcRefusalPage(refusal: OidcRefusal): { status: number; html: string } {
  const { status, title, text } = PAGES[refusal];
  return {
    status,
    html: PLAIN.page(title, `<p>${escapeHtml(text)}</p><p><a href="/console/">Back to the sign-in page</a></p>`),
  };
}
