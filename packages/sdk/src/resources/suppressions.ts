import type { paths } from '../generated/openapi.js';
import {
  type Api,
  type BodyOf,
  type CallOptions,
  everyItem,
  type QueryOf,
  type Schemas,
  unwrap,
  type Shape,
} from '../request.js';

export interface AddSuppression extends Shape<BodyOf<paths['/user/suppressions']['post']>> {}
export interface ListSuppressions extends Shape<QueryOf<paths['/user/suppressions']['get']>> {}
export interface Suppression extends Shape<Schemas['SuppressionResponse']> {}
export interface SuppressionPage extends Shape<Schemas['SuppressionPageResponse']> {}

export class Suppressions {
  /** @internal The client makes its resources. */
  constructor(private readonly api: Api) {}

  add(suppression: AddSuppression, options: CallOptions = {}): Promise<Suppression> {
    return unwrap(this.api.POST('/user/suppressions', { body: suppression, signal: options.signal }));
  }

  /** One page, newest first. */
  list(query: ListSuppressions = {}, options: CallOptions = {}): Promise<SuppressionPage> {
    return unwrap(this.api.GET('/user/suppressions', { params: { query }, signal: options.signal }));
  }

  /** Every entry the query matches, page after page (see `emails.listAll`). */
  listAll(query: ListSuppressions = {}, options: CallOptions = {}): AsyncGenerator<Suppression, void, undefined> {
    return everyItem(
      query,
      (q) => this.list(q, options),
      (page) => page.suppressions,
    );
  }

  async remove(email: string, options: CallOptions = {}): Promise<void> {
    await unwrap(
      this.api.DELETE('/user/suppressions/{email}', { params: { path: { email } }, signal: options.signal }),
    );
  }
}
