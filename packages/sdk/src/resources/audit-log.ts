import type { paths } from '../generated/openapi.js';
import { type Api, type CallOptions, everyItem, type QueryOf, type Schemas, unwrap, type Shape } from '../request.js';

export interface ListAuditLog extends Shape<QueryOf<paths['/user/audit-log']['get']>> {}
export interface AuditLogEntry extends Shape<Schemas['AuditLogEntryResponse']> {}
export interface AuditLogPage extends Shape<Schemas['AuditLogPageResponse']> {}

/** Who changed what in the account, and from where: owners and admins read it. */
export class AuditLog {
  /** @internal The client makes its resources. */
  constructor(private readonly api: Api) {}

  /** One page, newest first. */
  list(query: ListAuditLog = {}, options: CallOptions = {}): Promise<AuditLogPage> {
    return unwrap(this.api.GET('/user/audit-log', { params: { query }, signal: options.signal }));
  }

  /** Every entry the query matches, page after page (see `emails.listAll`). */
  listAll(query: ListAuditLog = {}, options: CallOptions = {}): AsyncGenerator<AuditLogEntry, void, undefined> {
    return everyItem(
      query,
      (q) => this.list(q, options),
      (page) => page.entries,
    );
  }
}
