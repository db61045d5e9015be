import { deliveryRetryPolicy } from './delivery-retry-policy';
import { MailDeliveryError } from './mailer/mailer';

const DELAYS = [30, 120, 0];

describe(deliveryRetryPolicy.name, () => {
  it('is sent when the server accepted it, with its reply', () => {
    expect(deliveryRetryPolicy({ receipt: { reply: '250 OK: queued as 1', rejected: [] } }, 1, DELAYS)).toEqual({
      status: 'sent',
      detail: '250 OK: queued as 1',
    });
  });

  it('is sent when the server accepted some recipients, naming those it refused', () => {
    const receipt = {
      reply: '250 OK',
      rejected: ['a@example.com', 'b@example.com'].map((address) => ({
        address,
        reply: '550 5.1.1 unknown',
        permanent: true,
      })),
    };
    expect(deliveryRetryPolicy({ receipt }, 1, DELAYS)).toEqual({
      status: 'sent',
      detail: '250 OK (refused: a@example.com, b@example.com)',
    });
  });

  it('fails at once on a 5xx reply, even with retries left', () => {
    const error = new MailDeliveryError('550 5.1.1 No such user', true);
    expect(deliveryRetryPolicy({ error }, 1, DELAYS)).toEqual({ status: 'failed', detail: '550 5.1.1 No such user' });
  });

  it.each([
    [1, 30],
    [2, 120],
    [3, 0],
  ])(
    'defers attempt %i of a temporary failure by the delay for that attempt (%i s; 0 is a retry too)',
    (attempt, delay) => {
      const error = new MailDeliveryError('421 4.7.0 Too busy', false);
      expect(deliveryRetryPolicy({ error }, attempt, DELAYS)).toEqual({
        status: 'deferred',
        detail: '421 4.7.0 Too busy',
        retryAfterSeconds: delay,
      });
    },
  );

  it('gives up once the delays have run out, saying after how many attempts', () => {
    const error = new MailDeliveryError('421 4.7.0 Too busy', false);
    expect(deliveryRetryPolicy({ error }, 4, DELAYS)).toEqual({
      status: 'failed',
      detail: '421 4.7.0 Too busy (gave up after 4 attempts)',
    });
  });

  it('fails the first attempt when there are no retry delays at all', () => {
    const error = new MailDeliveryError('421 4.7.0 Too busy', false);
    expect(deliveryRetryPolicy({ error }, 1, [])).toEqual({
      status: 'failed',
      detail: '421 4.7.0 Too busy (gave up after 1 attempts)',
    });
  });

  it("retries a transport's own failure (not a mail server's reply) like a temporary one", () => {
    const error = Object.assign(new Error('EACCES: permission denied, open /outbox/1.eml'), { code: 'EACCES' });
    expect(deliveryRetryPolicy({ error }, 1, DELAYS)).toEqual({
      status: 'deferred',
      detail: 'EACCES: permission denied, open /outbox/1.eml',
      retryAfterSeconds: 30,
    });
  });

  it.each([[new Error('')], ['a string'], [undefined]])(
    'says "the transport failed" when the failure (%p) has no message',
    (error) => {
      expect(deliveryRetryPolicy({ error }, 1, DELAYS)).toEqual({
        status: 'deferred',
        detail: 'the transport failed',
        retryAfterSeconds: 30,
      });
    },
  );
});
