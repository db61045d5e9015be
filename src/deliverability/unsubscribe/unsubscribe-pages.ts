import { escapeHtml, PlainPages } from '../../platform/http/plain-page';

/**
 * The pages a recipient sees: small, accessible, and in need of no script. Every value put into
 * them goes through escapeHtml.
 */

const PAGES = new PlainPages({ extraStyle: 'button{font:inherit;padding:.5rem 1.25rem}', formAction: "'self'" });

/**
 * The headers of every answer of the unsubscribe routes, pages or not: never cached (a shared cache must not keep one recipient's
 * page), nothing but the page's own style, no frame around it (no clickjacking of the button),
 * the form posting only back here, and no Referer carrying the token anywhere.
 */
export const PAGE_HEADERS = PAGES.headers;

/**
 * The address as the pages show it: its first character and its domain, enough for a person with
 * several addresses to tell which one, not the whole of it to whoever a link is forwarded to.
 */
export function maskAddress(address: string): string {
  const at = address.lastIndexOf('@');
  return `${[...address.slice(0, at)][0] ?? ''}…${address.slice(at)}`;
}

const page = (title: string, body: string): string => PAGES.page(title, body);

/** Whom the pages are about: the recipient's address, and the sender's, whose list the recipient leaves. */
export interface PageSubject {
  address: string;
  sender: string;
}

const between = ({ address, sender }: PageSubject) => [
  `<strong>${escapeHtml(sender)}</strong>`,
  `<strong>${escapeHtml(maskAddress(address))}</strong>`,
];

/**
 * A form with one button, posting to `action`: relative to the page's own address, so that it
 * holds under any path a proxy serves the pages at; none: the page's own address. An unsubscribe
 * sends RFC 8058's body, as a mail client's one-click request does.
 */
function button(label: 'Unsubscribe' | 'Undo', action?: string): string {
  const oneClick = label === 'Unsubscribe' ? '<input type="hidden" name="List-Unsubscribe" value="One-Click">' : '';
  return (
    `<form method="post"${action === undefined ? '' : ` action="${escapeHtml(action)}"`}>` +
    `${oneClick}<button type="submit">${label}</button></form>`
  );
}

/**
 * An unsubscribe stops bulk mail only (docs/delivery-and-deliverability.md: a message with a bulkSendingId), so the reader is
 * told that the password reset and the receipt still come, and does not believe every mail stops.
 */
const STILL_ARRIVES =
  '<p>Only newsletters and other bulk mail stop. Mail about your own account or orders, such as receipts and password resets, still arrives.</p>';

/** GET: what the button would do. Opening it changes nothing: mail scanners follow links. */
export function confirmationPage(subject: PageSubject): string {
  const [sender, address] = between(subject);
  return page(
    'Unsubscribe',
    `<p>Stop bulk email from ${sender} to ${address}?</p>${STILL_ARRIVES}${button('Unsubscribe')}`,
  );
}

/** The answer to the button (at /unsubscribe/<token>), with a way back for a press by mistake. */
export function unsubscribedPage(subject: PageSubject, token: string): string {
  const [sender, address] = between(subject);
  return page(
    'You are unsubscribed',
    `<p>${sender} no longer sends bulk email to ${address}.</p>${STILL_ARRIVES}<p>Unsubscribed by mistake?</p>` +
      button('Undo', `${encodeURIComponent(token)}/resubscribe`),
  );
}

/** The answer to the undo (at /unsubscribe/<token>/resubscribe); `undone`: there was an unsubscribe to undo. */
export function resubscribedPage(subject: PageSubject & { undone: boolean }, token: string): string {
  const [sender, address] = between(subject);
  if (!subject.undone) return page('Nothing to undo', `<p>${address} has not unsubscribed from ${sender}.</p>`);
  return page(
    'You are subscribed again',
    `<p>${sender} may send bulk email to ${address} again.</p>` +
      button('Unsubscribe', `../${encodeURIComponent(token)}`),
  );
}

export function invalidLinkPage(): string {
  return page(
    'This unsubscribe link is not valid',
    '<p>It may have been changed or cut short when it was copied. Use the link in the email exactly as it is.</p>',
  );
}
