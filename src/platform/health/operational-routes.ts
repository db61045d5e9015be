import type { NextFunction, Request, Response } from 'express';
import { sendProblem } from '../problem/send-problem';

const OPERATIONAL = /^\/(health|metrics)(\/|$)/i;

/**
 * A worker process listens only for probes and scrapers (docs/configuration.md ROLE): /health* and /metrics
 * reach their controllers; every other path, API routes and docs included, is a 404.
 */
export function onlyOperationalRoutes(request: Request, response: Response, next: NextFunction): void {
  if (OPERATIONAL.test(request.path)) return next();
  sendProblem(
    request,
    response,
    404,
    'A worker process serves only /health, /health/ready and /metrics; the API is on the API processes.',
  );
}
