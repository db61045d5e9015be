import type { paths } from '../generated/openapi.js';
import {
  type Api,
  type BodyOf,
  bytes,
  type CallOptions,
  everyItem,
  type QueryOf,
  type Schemas,
  unwrap,
  type Shape,
} from '../request.js';

export interface SendEmail extends Shape<BodyOf<paths['/sender/send']['post']>> {}
export interface SendBatch extends Shape<BodyOf<paths['/sender/send/batch']['post']>> {}
export interface Email extends Shape<Schemas['MessageResponse']> {}
export interface EmailPage extends Shape<Schemas['MessagePageResponse']> {}
export type EmailStatus = Email['status'];
export interface EmailContent extends Shape<Schemas['MessageContentResponse']> {}
export interface BatchResult extends Shape<Schemas['BatchResponse']> {}

/** GET /user/messages's query, with `statuses` as an array (the API takes them comma-separated). */
export interface ListEmails extends Shape<Omit<QueryOf<paths['/user/messages']['get']>, 'statuses'>> {
  /** Only messages in one of these statuses. */
  statuses?: EmailStatus[];
}

export interface SendOptions extends CallOptions {
  /**
   * Sent as `Idempotency-Key`: a repeat with the same key and body within 24 h gets the first
   * answer and sends nothing again. Without one, the client makes one per call unless its
   * `idempotencyKeys` option is `false`.
   */
  idempotencyKey?: string;
}

export class Emails {
  /** @internal The client makes its resources. */
  constructor(
    private readonly api: Api,
    private readonly newKey: () => string | undefined,
  ) {}

  send(email: SendEmail, options: SendOptions = {}): Promise<Email> {
    const key = options.idempotencyKey ?? this.newKey();
    return unwrap(
      this.api.POST('/sender/send', {
        body: email,
        params: { header: { 'Idempotency-Key': key } },
        signal: options.signal,
      }),
    );
  }

  sendBatch(batch: SendBatch, options: SendOptions = {}): Promise<BatchResult> {
    const key = options.idempotencyKey ?? this.newKey();
    return unwrap(
      this.api.POST('/sender/send/batch', {
        body: batch,
        params: { header: { 'Idempotency-Key': key } },
        signal: options.signal,
      }),
    );
  }

  get(id: string, options: CallOptions = {}): Promise<Email> {
    return unwrap(this.api.GET('/user/messages/{id}', { params: { path: { id } }, signal: options.signal }));
  }

  /** One page, newest first. */
  list(query: ListEmails = {}, options: CallOptions = {}): Promise<EmailPage> {
    const { statuses, ...rest } = query;
    return unwrap(
      this.api.GET('/user/messages', {
        params: { query: { ...rest, statuses: statuses?.length ? statuses.join(',') : undefined } },
        signal: options.signal,
      }),
    );
  }

  /**
   * Every message the query matches, page after page from `query.page` (100 a page unless `take`
   * says otherwise). Pages are numbered, newest first: a message sent during the walk shifts the
   * later pages by one, so an item may come twice; none is skipped for that reason.
   */
  listAll(query: ListEmails = {}, options: CallOptions = {}): AsyncGenerator<Email, void, undefined> {
    return everyItem(
      query,
      (q) => this.list(q, options),
      (page) => page.messages,
    );
  }

  cancel(id: string, options: CallOptions = {}): Promise<Email> {
    return unwrap(this.api.POST('/user/messages/{id}/cancel', { params: { path: { id } }, signal: options.signal }));
  }

  /** The message's subject, text and HTML bodies and attachments' descriptions. */
  content(id: string, options: CallOptions = {}): Promise<EmailContent> {
    return unwrap(this.api.GET('/user/messages/{id}/content', { params: { path: { id } }, signal: options.signal }));
  }

  /** The message as delivered (RFC 5322), its bytes as they are. */
  raw(id: string, options: CallOptions = {}): Promise<Uint8Array> {
    return bytes(
      this.api.GET('/user/messages/{id}/raw', {
        params: { path: { id } },
        parseAs: 'arrayBuffer',
        signal: options.signal,
      }),
    );
  }

  /** One attachment's bytes, by its index in `content(id).attachments`. */
  attachment(id: string, index: number, options: CallOptions = {}): Promise<Uint8Array> {
    return bytes(
      this.api.GET('/user/messages/{id}/attachments/{index}', {
        params: { path: { id, index: String(index) } },
        parseAs: 'arrayBuffer',
        signal: options.signal,
      }),
    );
  }
}
