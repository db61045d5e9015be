import { ProblemError } from '../platform/problem/problem.errors';

/** An API key asked for an operation outside its scopes (docs/api.md#errors, docs/api.md#smtp-submission). */
export class MissingScopeError extends ProblemError {
  readonly status = 403;
}
