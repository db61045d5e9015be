/**
 * Mail HTML only inside an iframe sandboxed with no permission at all (SPEC §14): no script runs,
 * it has an opaque origin, and it cannot navigate the console. Its srcdoc document inherits the
 * console's CSP (img-src 'self', frame-src 'self'), so no remote image, no cid: part and no
 * meta refresh elsewhere loads (its style-src 'self' may also drop the mail's inline styles).
 */
export function HtmlPreview({ html }: { html: string }) {
  return (
    <>
      <iframe className="mail-preview" title="HTML preview of the message" sandbox="" srcDoc={html} />
      <p className="muted small">
        Shown without scripts, remote images or inline (cid:) images, so that opening it tells no one it was read.
        Download the .eml to see it as a mail client would.
      </p>
    </>
  );
}
