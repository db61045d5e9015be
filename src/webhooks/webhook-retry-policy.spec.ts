import { webhookRetryPolicy } from './webhook-retry-policy';

const DELAYS = [5, 300, 1800];

describe(webhookRetryPolicy.name, () => {
  it.each([200, 201, 204, 299])('is delivered on a %i', (status) => {
    expect(webhookRetryPolicy(status, 0, DELAYS)).toEqual({ state: 'delivered' });
  });

  it('is delivered on a 2xx even after every retry was used', () => {
    expect(webhookRetryPolicy(200, DELAYS.length, DELAYS)).toEqual({ state: 'delivered' });
  });

  it('is gone on a 410, with retries left: the receiver asked for no more', () => {
    expect(webhookRetryPolicy(410, 0, DELAYS)).toEqual({ state: 'gone' });
  });

  it.each([
    [0, 5],
    [1, 300],
    [2, 1800],
  ])('retries after %i earlier attempts with the delay at that index (%i s)', (attemptsBefore, delay) => {
    expect(webhookRetryPolicy(500, attemptsBefore, DELAYS)).toEqual({ state: 'pending', retryAfterSeconds: delay });
  });

  it.each([[199], [301], [400], [404], [429], [500], [503]])(
    'retries any other status (%i), redirects included',
    (status) => {
      expect(webhookRetryPolicy(status, 0, DELAYS)).toEqual({ state: 'pending', retryAfterSeconds: 5 });
    },
  );

  it('retries when no answer came (refused target, timeout, connection error)', () => {
    expect(webhookRetryPolicy(undefined, 0, DELAYS)).toEqual({ state: 'pending', retryAfterSeconds: 5 });
  });

  it('fails once the delays have run out', () => {
    expect(webhookRetryPolicy(500, DELAYS.length, DELAYS)).toEqual({ state: 'failed' });
    expect(webhookRetryPolicy(undefined, DELAYS.length, DELAYS)).toEqual({ state: 'failed' });
  });

  it('gives a replay of a failed event one attempt and no new retries', () => {
    // A failed event has had every attempt: the first and one per delay.
    expect(webhookRetryPolicy(500, DELAYS.length + 1, DELAYS)).toEqual({ state: 'failed' });
    expect(webhookRetryPolicy(200, DELAYS.length + 1, DELAYS)).toEqual({ state: 'delivered' });
  });

  it('fails the first attempt when there are no retry delays at all', () => {
    expect(webhookRetryPolicy(500, 0, [])).toEqual({ state: 'failed' });
  });
});
