import { useMessageContent } from '../../api/message-content';
import { MailBodyView, MailContentSection } from '../../components/mail-content';
import { QueryView } from '../../components/query-view';

/** docs/architecture.md#the-console: the content as accepted — a preview, the text, custom headers, attachments, `.eml`. */
export function ContentSection({ messageId }: { messageId: string }) {
  const query = useMessageContent(messageId);
  return (
    <MailContentSection path={`/user/messages/${encodeURIComponent(messageId)}`} emlName={`${messageId}.eml`}>
      {(save) => (
        <QueryView query={query} what="the content">
          {(content) => (
            <MailBodyView
              body={{
                ...content,
                headers: Object.entries(content.headers).map(([name, value]) => ({ name, value })),
              }}
              headersTitle="Custom headers"
              onSave={save}
            />
          )}
        </QueryView>
      )}
    </MailContentSection>
  );
}
