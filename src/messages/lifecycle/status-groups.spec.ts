import { MESSAGE_STATUSES } from '../message-status';
import type { OpenAPIObject } from '@nestjs/swagger';
import { CANCELABLE_STATUSES, FINISHED_STATUSES, UNFINISHED_STATUSES } from './status-groups';
import { publishStatusGroups } from './status-groups.openapi';

describe('the status groups read from the transition table', () => {
  it('has the delivery of scheduled, queued, sending and deferred messages still to come', () => {
    expect(UNFINISHED_STATUSES).toEqual(['scheduled', 'queued', 'sending', 'deferred']);
  });

  it('splits every status into unfinished or finished, none in both', () => {
    expect(FINISHED_STATUSES).toEqual(['sent', 'failed', 'canceled', 'suppressed', 'bounced', 'complained']);
    expect([...UNFINISHED_STATUSES, ...FINISHED_STATUSES].sort()).toEqual([...MESSAGE_STATUSES].sort());
  });

  it('lets a message be canceled only before any attempt is under way', () => {
    expect(CANCELABLE_STATUSES).toEqual(['scheduled', 'queued', 'deferred']);
  });

  it('publishes every group as a named string enum of the OpenAPI document, beside what it holds', () => {
    const document = { openapi: '3.0.0', info: { title: 't', version: '1' }, paths: {} } as OpenAPIObject;
    publishStatusGroups(document);
    const schemas = document.components!.schemas!;
    expect(schemas.MessageStatus).toMatchObject({ type: 'string', enum: [...MESSAGE_STATUSES] });
    expect(schemas.UnfinishedMessageStatus).toMatchObject({ enum: [...UNFINISHED_STATUSES] });
    expect(schemas.FinishedMessageStatus).toMatchObject({ enum: [...FINISHED_STATUSES] });
    expect(schemas.CancelableMessageStatus).toMatchObject({ enum: ['scheduled', 'queued', 'deferred'] });
  });
});
