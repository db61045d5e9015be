import { createHash } from 'node:crypto';

/**
 * The pages a recipient sees: small, accessible, and in need of no script. Every value put into
 * them goes through escapeHtml.
 */

const STYLE = 'body{font:1rem/1.5 system-ui,sans-serif;max-width:36rem;margin:3rem auto;padding:0 1rem}button{font:inherit;padding:.5rem 1.25rem}';

/**
 * The headers of every answer of the unsubscribe routes, pages or not: never cached (a shared cache must not keep one recipient's
 * page), nothing but the page's own style, no frame around it (no clickjacking of the button),
 * the form posting only back here, and no Referer carrying the token anywhere.
 */
export const PAGE_HEADERS: Record<string, string> = {
  'Cache-Control': 'no-store',
  'Content-Security-Policy':
    `default-src 'none'; style-src 'sha256-${createHash('sha256').update(STYLE).digest('base64')}'; ` +
    `form-action 'self'; frame-ancestors 'none'; base-uri 'none'`,
  'X-Frame-Options': 'DENY',
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
};

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * The address as the pages show it: its first character and its domain, enough for a person with
 * several addresses to tell which one, not the whole of it to whoever a link is forwarded to.
 */
export function maskAddress(address: string): string {
  const at = address.lastIndexOf('@');
  return `${[...address.slice(0, at)][0] ?? ''}…${address.slice(at)}`;
}

function page(title: string, body: string): string {
  return (
    `<!doctype html>\n<html lang="en"><head><meta charset="utf-8">` +
    `<meta name="viewport" content="width=device-width, initial-scale=1">` +
    `<title>${escapeHtml(title)}</title><style>${STYLE}</style></head>` +
    `<body><main><h1>${escapeHtml(title)}</h1>${body}</main></body></html>\n`
  );
}

/** GET: what the button would do. Opening it changes nothing: mail scanners follow links. */
export function confirmationPage(address: string): string {
  return page(
    'Unsubscribe',
    `<p>Stop email from this sender to <strong>${escapeHtml(maskAddress(address))}</strong>?</p>` +
      // No action: the form posts back to this very address, whatever path a proxy serves it under.
      // The body is RFC 8058's, as a mail client's one-click request sends it.
      `<form method="post"><input type="hidden" name="List-Unsubscribe" value="One-Click">` +
      `<button type="submit">Unsubscribe</button></form>`,
  );
}

/** The answer to the button. */
export function unsubscribedPage(address: string): string {
  return page(
    'You are unsubscribed',
    `<p>This sender no longer sends email to <strong>${escapeHtml(maskAddress(address))}</strong>.</p>`,
  );
}

export function invalidLinkPage(): string {
  return page(
    'This unsubscribe link is not valid',
    '<p>It may have been changed or cut short when it was copied. Use the link in the email exactly as it is.</p>',
  );
}
