import { Webhook as StandardWebhook } from 'standardwebhooks';
import { Webhook as SvixWebhook } from 'svix';
import { automock } from '../../../test/support/automock';
import type { AuditLog } from '../../auth';
import { Clock } from '../../platform/clock';
import type { AppConfig } from '../../platform/config/app-config';
import type { Database } from '../../platform/database/database';
import type { EventOutbox } from '../events/event-outbox';
import { WebhookSigner } from '../webhook-signer';
import { signingSecrets } from './endpoint-secrets';
import { WebhookEndpointsRepository } from './webhook-endpoints.repository';
import { WebhookEndpointsService } from './webhook-endpoints.service';

/** A clock the test moves: 24 hours pass in a line. */
class MovableClock extends Clock {
  constructor(public at: Date) {
    super();
  }

  override now(): Date {
    return this.at;
  }
}

const HOUR = 60 * 60 * 1000;
const OLD = `whsec_${Buffer.alloc(32, 1).toString('base64')}`;

describe('a rotated endpoint secret (docs/delivery-and-deliverability.md#webhooks: both signatures for 24 hours, then the new one only)', () => {
  const rotatedAt = new Date('2026-11-26T12:00:00.000Z');
  let clock: MovableClock;
  let repository: jest.Mocked<WebhookEndpointsRepository>;
  let sut: WebhookEndpointsService;
  const signer = new WebhookSigner({} as AppConfig);

  beforeEach(() => {
    clock = new MovableClock(rotatedAt);
    repository = automock<WebhookEndpointsRepository>('repository');
    sut = new WebhookEndpointsService(
      automock<Database>('database'),
      clock,
      repository,
      automock<EventOutbox>('outbox'),
      automock<AuditLog>('audit'),
    );
  });

  /** Rotates OLD away at `rotatedAt`; the endpoint as the repository then holds it. */
  async function rotate() {
    repository.rotate.mockImplementation((_user, _id, fresh) => Promise.resolve(fresh.secret));
    const { secret } = await sut.rotateSecret(
      { id: 'ada', clientAddress: '127.0.0.1' },
      '7d4c3a4e-2f7b-4c8e-9a51-3f0f2b9d6c11',
    );
    const [, , { secret: stored, until }] = repository.rotate.mock.calls[0];
    expect(stored).toBe(secret);
    return { secret, previousSecret: OLD, previousSecretUntil: until };
  }

  /** A request signed as an attempt at the clock's moment would be; whether each library verifies it with `secret`. */
  function verdicts(endpoint: Awaited<ReturnType<typeof rotate>>, secret: string) {
    const body = JSON.stringify({ id: 'msg_1', type: 'endpoint.test', data: {} });
    // The header's timestamp is now: the libraries refuse one five minutes away from their own clock.
    const timestamp = Math.floor(Date.now() / 1000);
    const headers = {
      'webhook-id': 'msg_1',
      'webhook-timestamp': String(timestamp),
      'webhook-signature': signer.signWith(signingSecrets(endpoint, clock.now()), 'msg_1', timestamp, body),
    };
    const accepts = (verify: () => unknown) => {
      try {
        verify();
        return true;
      } catch {
        return false;
      }
    };
    return {
      standardwebhooks: accepts(() => new StandardWebhook(secret).verify(body, headers)),
      svix: accepts(() => new SvixWebhook(secret).verify(body, headers)),
      signatures: headers['webhook-signature'].split(' ').length,
    };
  }

  it('signs with the new and the old secret until 24 hours have passed', async () => {
    const endpoint = await rotate();
    expect(endpoint.previousSecretUntil).toEqual(new Date(rotatedAt.getTime() + 24 * HOUR));

    for (const later of [0, 1, 23 * HOUR, 24 * HOUR - 1]) {
      clock.at = new Date(rotatedAt.getTime() + later);
      const both = { standardwebhooks: true, svix: true, signatures: 2 };
      expect({ later, new: verdicts(endpoint, endpoint.secret), old: verdicts(endpoint, OLD) }).toEqual({
        later,
        new: both,
        old: both,
      });
    }
  });

  it('signs with the new secret only once 24 hours have passed', async () => {
    const endpoint = await rotate();

    for (const later of [24 * HOUR, 25 * HOUR, 30 * 24 * HOUR]) {
      clock.at = new Date(rotatedAt.getTime() + later);
      expect({ later, new: verdicts(endpoint, endpoint.secret), old: verdicts(endpoint, OLD) }).toEqual({
        later,
        new: { standardwebhooks: true, svix: true, signatures: 1 },
        old: { standardwebhooks: false, svix: false, signatures: 1 },
      });
    }
  });

  it('signs with one secret an endpoint never rotated', () => {
    expect(signingSecrets({ secret: OLD, previousSecret: null, previousSecretUntil: null }, rotatedAt)).toEqual([OLD]);
  });
});
