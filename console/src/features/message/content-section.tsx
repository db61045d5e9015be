import { useDownload, useMessageContent, type Attachment, type MessageContent } from '../../api/message-content';
import { QueryView } from '../../components/query-view';
import { Empty, InlineError } from '../../components/states';
import { HtmlPreview } from './html-preview';

/** SPEC §14: the content as accepted — a preview, the text, custom headers, attachments, `.eml`. */
export function ContentSection({ messageId }: { messageId: string }) {
  const query = useMessageContent(messageId);
  const download = useDownload();
  const save = (path: string, fileName: string) => download.mutate({ path, fileName });
  return (
    <section aria-labelledby="content-title" className="card">
      <header className="page-header">
        <h2 id="content-title">Content</h2>
        <button
          type="button"
          onClick={() => save(`/user/messages/${encodeURIComponent(messageId)}/raw`, `${messageId}.eml`)}
        >
          Download .eml
        </button>
      </header>
      <InlineError error={download.error} />
      <QueryView query={query} what="the content">
        {(content) => <ContentView content={content} messageId={messageId} onSave={save} />}
      </QueryView>
    </section>
  );
}

function ContentView({
  content,
  messageId,
  onSave,
}: {
  content: MessageContent;
  messageId: string;
  onSave: (path: string, fileName: string) => void;
}) {
  const headers = Object.entries(content.headers);
  return (
    <>
      <h3>Preview</h3>
      {content.html === null ? (
        <Empty title="No HTML">This message is text only.</Empty>
      ) : (
        <HtmlPreview html={content.html} />
      )}
      <h3>Text</h3>
      <pre className="mail-text">{content.text}</pre>
      <h3>Custom headers</h3>
      {headers.length === 0 ? (
        <p className="muted">None.</p>
      ) : (
        <dl className="fields">
          {headers.map(([name, value]) => (
            <div key={name}>
              <dt>
                <code>{name}</code>
              </dt>
              <dd className="wrap">{value}</dd>
            </div>
          ))}
        </dl>
      )}
      <h3>Attachments</h3>
      {content.attachments.length === 0 ? (
        <p className="muted">None.</p>
      ) : (
        <ul className="attachments">
          {content.attachments.map((attachment) => (
            <li key={attachment.index}>
              <button
                type="button"
                className="link-button"
                onClick={() =>
                  onSave(
                    `/user/messages/${encodeURIComponent(messageId)}/attachments/${attachment.index}`,
                    nameOf(attachment),
                  )
                }
              >
                {nameOf(attachment)}
              </button>{' '}
              <span className="muted small">
                {attachment.contentType}, {formatBytes(attachment.size)}
                {attachment.contentId && <> · inline as cid:{attachment.contentId}</>}
              </span>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}

function nameOf(attachment: Attachment): string {
  return attachment.fileName ?? `attachment-${attachment.index + 1}`;
}

function formatBytes(size: number): string {
  if (size < 1024) return `${size} B`;
  if (size < 1024 * 1024) return `${(size / 1024).toFixed(1)} KB`;
  return `${(size / 1024 / 1024).toFixed(1)} MB`;
}
