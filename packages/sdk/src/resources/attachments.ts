import { type Api, type CallOptions, type Schemas, unwrap, type Shape } from '../request.js';

export interface StoredAttachment extends Shape<Schemas['AttachmentResponse']> {}

export interface UploadOptions extends CallOptions {
  /** The file's name as recipients see it. */
  fileName: string;
  /** Its media type; for a Blob, the Blob's own type when this is not given. */
  contentType?: string;
}

/** Files stored ahead of a send, for attachments too large to carry base64 in its JSON. */
export class Attachments {
  /** @internal The client makes its resources. */
  constructor(private readonly api: Api) {}

  /** Stores `content`; pass the answer's `id` in a send's `attachmentIds`. */
  upload(
    content: Blob | ArrayBuffer | Uint8Array<ArrayBuffer> | string,
    options: UploadOptions,
  ): Promise<StoredAttachment> {
    const type = options.contentType ?? (content instanceof Blob ? content.type : 'application/octet-stream');
    const form = new FormData();
    form.append('file', new Blob([content], { type }), options.fileName);
    return unwrap(
      this.api.POST('/attachments', {
        // The document types a binary part as a string; openapi-fetch sends a FormData as it is.
        body: form as unknown as { file: string },
        signal: options.signal,
      }),
    );
  }
}
