import { Injectable, NestMiddleware } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { Metrics } from './metrics';

/** Times every request, labelled by its route pattern (never the raw path, which has ids in it). */
@Injectable()
export class HttpMetricsMiddleware implements NestMiddleware {
  constructor(private readonly metrics: Metrics) {}

  use(request: Request, response: Response, next: NextFunction): void {
    const end = this.metrics.httpRequestDuration.startTimer();
    response.once('finish', () => {
      // express types request.route as any: the pattern of the route that matched, if one did.
      const pattern = (request.route as { path?: string } | undefined)?.path;
      const route = pattern ? `${request.baseUrl}${pattern}` : 'unmatched';
      end({ method: request.method, route, status: String(response.statusCode) });
    });
    next();
  }
}
