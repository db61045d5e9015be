import type { paths } from '../generated/openapi.js';
import { type Api, type CallOptions, type QueryOf, type Schemas, unwrap } from '../request.js';

export type StatsQuery = QueryOf<paths['/user/stats']['get']>;
export type Stats = Schemas['StatsResponse'];

export class StatsResource {
  constructor(private readonly api: Api) {}

  /** Counts by day and status over the query's days. */
  get(query: StatsQuery = {}, options: CallOptions = {}): Promise<Stats> {
    return unwrap(this.api.GET('/user/stats', { params: { query }, signal: options.signal }));
  }
}
