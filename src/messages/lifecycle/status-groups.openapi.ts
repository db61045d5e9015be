import type { OpenAPIObject } from '@nestjs/swagger';
import { MESSAGE_STATUSES } from '../message-status';
import { CANCELABLE_STATUSES, FINISHED_STATUSES, UNFINISHED_STATUSES } from './status-groups';

/**
 * The statuses and their groups as named schemas of the OpenAPI document, so that a client (the
 * console's generated types and values) reads them from the transitions table rather than
 * writing them again. No operation refers to them: they are vocabulary, not a body.
 */
const GROUPS = {
  MessageStatus: { statuses: MESSAGE_STATUSES, description: 'Every status of a message, in the order it moves' },
  UnfinishedMessageStatus: {
    statuses: UNFINISHED_STATUSES,
    description: 'Statuses whose delivery is still to come or under way: the message moves on its own',
  },
  FinishedMessageStatus: {
    statuses: FINISHED_STATUSES,
    description: 'Statuses whose delivery has ended (only a later report may still move a sent message)',
  },
  CancelableMessageStatus: {
    statuses: CANCELABLE_STATUSES,
    description: 'Statuses from which POST /user/messages/{id}/cancel succeeds',
  },
};

export function publishStatusGroups(document: OpenAPIObject): void {
  const schemas = (document.components ??= {}).schemas ?? (document.components.schemas = {});
  for (const [name, { statuses, description }] of Object.entries(GROUPS))
    schemas[name] = { type: 'string', enum: [...statuses], description };
}
