import { ServiceUnavailableException } from '@nestjs/common';
import { HealthCheckService, TypeOrmHealthIndicator } from '@nestjs/terminus';
import { automock } from '../../../test/support/automock';
import { ServiceUnavailableError } from '../problem/problem.errors';
import { HealthController } from './health.controller';
import { QueueHealthIndicator } from './queue.health';

describe(HealthController.name, () => {
  it('answers readiness failures with the names of the failed checks and nothing of their errors', async () => {
    const health = automock<HealthCheckService>('HealthCheckService');
    health.check.mockRejectedValue(
      new ServiceUnavailableException({
        status: 'error',
        error: {
          database: { status: 'down', message: 'connect ECONNREFUSED 10.0.0.5:5432' },
          queue: { status: 'down' },
        },
      }),
    );
    const sut = new HealthController(health, automock<TypeOrmHealthIndicator>(), automock<QueueHealthIndicator>());

    const error = await sut.ready().catch((e: unknown) => e);

    expect(error).toBeInstanceOf(ServiceUnavailableError);
    expect((error as Error).message).toBe('Not ready: database and queue not answering.');
  });
});
