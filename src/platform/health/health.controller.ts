import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { HealthCheck, HealthCheckResult, HealthCheckService, TypeOrmHealthIndicator } from '@nestjs/terminus';
import { Public } from '../http/public.decorator';
import { ApiProblemResponses } from '../problem/api-problem-responses.decorator';
import { ServiceUnavailableError } from '../problem/problem.errors';
import { QueueHealthIndicator } from './queue.health';

@ApiTags('health')
@Public()
@Controller('health')
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly database: TypeOrmHealthIndicator,
    private readonly queue: QueueHealthIndicator,
  ) {}

  @Get()
  @ApiOperation({ summary: 'Liveness: the process answers' })
  @ApiOkResponse({ schema: { example: { status: 'ok' } } })
  live(): { status: 'ok' } {
    return { status: 'ok' };
  }

  @Get('ready')
  // Documented here: terminus's own 503 is not the problem body this endpoint answers with.
  @HealthCheck({ swaggerDocumentation: false })
  @ApiOperation({ summary: 'Readiness: the database and the job queue answer' })
  @ApiOkResponse({
    schema: {
      example: {
        status: 'ok',
        info: { database: { status: 'up' }, queue: { status: 'up', waiting: 0 } },
        error: {},
        details: { database: { status: 'up' }, queue: { status: 'up', waiting: 0 } },
      },
    },
  })
  @ApiProblemResponses()
  async ready(): Promise<HealthCheckResult> {
    try {
      return await this.health.check([
        () => this.database.pingCheck('database', { timeout: 2000 }),
        () => this.queue.check('queue'),
      ]);
    } catch (error) {
      throw new ServiceUnavailableError(`Not ready: ${failedChecks(error)}.`);
    }
  }
}

/**
 * Terminus reports failures as `{error: {name: {...}}}`. The problem names the failed checks but
 * not their errors, which can name internal hosts: this endpoint needs no token.
 */
function failedChecks(error: unknown): string {
  const names = Object.keys((error as { response?: { error?: object } }).response?.error ?? {});
  return names.length > 0 ? `${names.join(' and ')} not answering` : 'a check failed';
}
