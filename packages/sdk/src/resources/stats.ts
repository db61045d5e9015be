import type { paths } from '../generated/openapi.js';
import { type Api, type CallOptions, type QueryOf, type Schemas, unwrap, type Shape } from '../request.js';

export interface StatsQuery extends Shape<QueryOf<paths['/user/stats']['get']>> {}
export interface Stats extends Shape<Schemas['StatsResponse']> {}

export class StatsResource {
  /** @internal The client makes its resources. */
  constructor(private readonly api: Api) {}

  /** Counts by day and status over the query's days. */
  get(query: StatsQuery = {}, options: CallOptions = {}): Promise<Stats> {
    return unwrap(this.api.GET('/user/stats', { params: { query }, signal: options.signal }));
  }
}
