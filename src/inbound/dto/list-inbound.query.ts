import { PickType } from '@nestjs/swagger';
import { ListMessagesQuery } from '../../messages';

/**
 * `GET /user/inbound` query (docs/inbound.md): the message list's paging, dates and address filters,
 * with their validation, defaults and documentation inherited as they are. `fromEmail` is the
 * From header's address; `toEmail` one of To, Cc or this user's envelope recipients.
 */
export class ListInboundQuery extends PickType(ListMessagesQuery, [
  'take',
  'page',
  'startDate',
  'endDate',
  'fromEmail',
  'toEmail',
] as const) {}
