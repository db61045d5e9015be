/**
 * Mail HTML (sent or received) only inside an iframe sandboxed with no permission at all (docs/architecture.md#the-console):
 * no script runs, it has an opaque origin, and it cannot navigate the console. Its srcdoc document
 * inherits the console's CSP (img-src 'self', frame-src 'self'), so no remote image, no cid: part
 * and no meta refresh elsewhere loads; that CSP allows inline styles so that the mail's own
 * <style> and style="" apply (src/console-files.ts says why that is safe).
 */
export function HtmlPreview({ html }: { html: string }) {
  return (
    <>
      <iframe className="mail-preview" title="HTML preview of the mail" sandbox="" srcDoc={html} />
      <p className="muted small">
        Shown without scripts, remote images or inline (cid:) images, so that opening it tells no one it was read.
        Download the .eml to see it as a mail client would.
      </p>
    </>
  );
}
