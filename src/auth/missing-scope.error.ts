import { ProblemError } from '../platform/problem/problem.errors';

/** An API key asked for an operation outside its scopes (SPEC §3, §10). */
export class MissingScopeError extends ProblemError {
  readonly status = 403;
}
