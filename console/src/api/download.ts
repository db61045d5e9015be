import { authorizationHeader, errorOf, reached, refusedSession } from './client';
import { useSingleMutation } from './use-single-mutation';
import { session } from './session';

/**
 * Downloads one of a mail's byte endpoints (an attachment, the `.eml`; docs/api.md#reading-back, docs/inbound.md). A link cannot
 * carry the Authorization header, so the bytes are fetched with the credential and saved from a
 * blob: URL (a download is no fetch the console's CSP governs).
 */
export function useDownload() {
  return useSingleMutation({
    mutationFn: async ({ path, fileName }: { path: string; fileName: string }) => {
      const authorization = authorizationHeader();
      const request = new Request(path, {
        headers: authorization ? { Authorization: authorization } : {},
        credentials: 'same-origin',
      });
      const response = await reached(fetch(request));
      if (response.status === 401 && refusedSession(request)) session.expire();
      if (!response.ok) throw await errorOf(response);
      const url = URL.createObjectURL(await response.blob());
      const link = document.createElement('a');
      link.href = url;
      link.download = fileName;
      link.click();
      // The click has handed the blob to the download; the URL is no longer needed.
      setTimeout(() => URL.revokeObjectURL(url), 0);
    },
  });
}
