import { MESSAGE_STATUSES } from '../message-status';
import { CANCELABLE_STATUSES, FINISHED_STATUSES, UNFINISHED_STATUSES } from './status-groups';

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
});
