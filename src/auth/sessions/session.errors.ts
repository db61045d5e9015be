import { ProblemError } from '../../platform/problem/problem.errors';

/** A wrong password or an unknown address: one answer for both (docs/teams.md#signing-in). */
export class SignInRefusedError extends ProblemError {
  readonly status = 401;

  constructor() {
    super('The email address or the password is wrong.');
  }
}

/** No live session: never signed in, signed out, expired, or the member removed. */
export class NoSessionError extends ProblemError {
  readonly status = 401;
}

/** A cookie-authenticated change from another site's page (cross-site request forgery). */
export class CrossSiteRequestError extends ProblemError {
  readonly status = 403;
}
