import { useQuery } from '@tanstack/react-query';
import { api, unwrap, type Schemas } from './client';
import { queryKeys } from './query-keys';

export type MessageContent = Schemas['MessageContentResponse'];

/** docs/api.md#reading-back: the body as accepted, its custom headers and its attachments' descriptions. */
export function useMessageContent(id: string) {
  return useQuery({
    queryKey: queryKeys.messages.content(id),
    queryFn: () => unwrap(api.GET('/user/messages/{id}/content', { params: { path: { id } } })),
  });
}
