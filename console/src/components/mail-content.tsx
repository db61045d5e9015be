import type { ReactNode } from 'react';
import { useDownload } from '../api/download';
import { HtmlPreview } from './html-preview';
import { Empty, InlineError } from './states';

/** What Message and Inbound show of a mail's body (docs/api.md#reading-back, docs/inbound.md). */
export interface MailBody {
  html: string | null;
  text: string | null;
  headers: { name: string; value: string }[];
  attachments: {
    index: number;
    fileName?: string | null;
    contentType: string;
    size: number;
    contentId?: string | null;
  }[];
}

/** Saves `…/raw` or `…/attachments/{index}` below the mail's path under `fileName`. */
type Save = (below: string, fileName: string) => void;

/**
 * A mail's content card (docs/architecture.md#the-console): the `.eml` download in its header, then `children` given the
 * function that downloads a byte route of the mail at `path` (`/user/messages/{id}`, `/user/inbound/{id}`).
 */
export function MailContentSection({
  path,
  emlName,
  children,
}: {
  path: string;
  emlName: string;
  children: (save: Save) => ReactNode;
}) {
  const download = useDownload();
  const save: Save = (below, fileName) => download.mutate({ path: `${path}${below}`, fileName });
  return (
    <section aria-labelledby="content-title" className="card">
      <header className="page-header">
        <h2 id="content-title">Content</h2>
        <button type="button" onClick={() => save('/raw', emlName)}>
          Download .eml
        </button>
      </header>
      <InlineError error={download.error} />
      {children(save)}
    </section>
  );
}

/** The preview, the text, the headers (`headersTitle` names which) and the attachments to download. */
export function MailBodyView({ body, headersTitle, onSave }: { body: MailBody; headersTitle: string; onSave: Save }) {
  return (
    <>
      <h3>Preview</h3>
      {body.html === null ? <Empty title="No HTML">This mail is text only.</Empty> : <HtmlPreview html={body.html} />}
      <h3>Text</h3>
      {body.text === null ? <p className="muted">No text part.</p> : <pre className="mail-text">{body.text}</pre>}
      <h3>{headersTitle}</h3>
      {body.headers.length === 0 ? (
        <p className="muted">None.</p>
      ) : (
        <dl className="fields">
          {body.headers.map(({ name, value }, index) => (
            <div key={`${index}:${name}`}>
              <dt>
                <code>{name}</code>
              </dt>
              <dd className="wrap">{value}</dd>
            </div>
          ))}
        </dl>
      )}
      <h3>Attachments</h3>
      {body.attachments.length === 0 ? (
        <p className="muted">None.</p>
      ) : (
        <ul className="attachments">
          {body.attachments.map((attachment) => {
            const name = attachment.fileName || `attachment-${attachment.index + 1}`;
            return (
              <li key={attachment.index}>
                <button
                  type="button"
                  className="link-button"
                  onClick={() => onSave(`/attachments/${attachment.index}`, name)}
                >
                  {name}
                </button>{' '}
                <span className="muted small">
                  {attachment.contentType}, {formatBytes(attachment.size)}
                  {attachment.contentId && <> · inline as cid:{attachment.contentId}</>}
                </span>
              </li>
            );
          })}
        </ul>
      )}
    </>
  );
}

function formatBytes(size: number): string {
  if (size < 1024) return `${size} B`;
  if (size < 1024 * 1024) return `${(size / 1024).toFixed(1)} KB`;
  return `${(size / 1024 / 1024).toFixed(1)} MB`;
}
