import type { paths } from '../generated/openapi.js';
import {
  type Api,
  bytes,
  type CallOptions,
  everyItem,
  type QueryOf,
  type Schemas,
  unwrap,
  type Shape,
} from '../request.js';

export interface ListInbound extends Shape<QueryOf<paths['/user/inbound']['get']>> {}
export interface InboundMail extends Shape<Schemas['InboundMailResponse']> {}
export interface InboundListItem extends Shape<Schemas['InboundListItemResponse']> {}
export interface InboundPage extends Shape<Schemas['InboundPageResponse']> {}

export class Inbound {
  /** @internal The client makes its resources. */
  constructor(private readonly api: Api) {}

  /** One page, newest first. */
  list(query: ListInbound = {}, options: CallOptions = {}): Promise<InboundPage> {
    return unwrap(this.api.GET('/user/inbound', { params: { query }, signal: options.signal }));
  }

  /** Every mail the query matches, page after page (see `emails.listAll`). */
  listAll(query: ListInbound = {}, options: CallOptions = {}): AsyncGenerator<InboundListItem, void, undefined> {
    return everyItem(
      query,
      (q) => this.list(q, options),
      (page) => page.inbound,
    );
  }

  /** One mail with its bodies. */
  get(id: string, options: CallOptions = {}): Promise<InboundMail> {
    return unwrap(this.api.GET('/user/inbound/{id}', { params: { path: { id } }, signal: options.signal }));
  }

  /** The mail as received (RFC 5322), its bytes as they are. */
  raw(id: string, options: CallOptions = {}): Promise<Uint8Array> {
    return bytes(
      this.api.GET('/user/inbound/{id}/raw', {
        params: { path: { id } },
        parseAs: 'arrayBuffer',
        signal: options.signal,
      }),
    );
  }

  attachment(id: string, index: number, options: CallOptions = {}): Promise<Uint8Array> {
    return bytes(
      this.api.GET('/user/inbound/{id}/attachments/{index}', {
        params: { path: { id, index: String(index) } },
        parseAs: 'arrayBuffer',
        signal: options.signal,
      }),
    );
  }
}
