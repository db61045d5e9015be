import type { Request, Response } from 'express';
import { problemBody } from './problem-details';

/** A problem answer from plain Express middleware, which runs outside Nest's exception filter. */
export function sendProblem(
  request: Request,
  response: Response,
  status: number,
  detail: string,
  headers: Record<string, string> = {},
): void {
  const body = problemBody(status, detail, typeof request.id === 'string' ? request.id : '');
  response.status(status).set(headers).type('application/problem+json').send(JSON.stringify(body));
}
