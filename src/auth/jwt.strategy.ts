import { createSecretKey } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import { passportJwtSecret } from 'jwks-rsa';
import type { JwtHeader, JwtPayload } from 'jsonwebtoken';
import { ExtractJwt, Strategy, StrategyOptionsWithoutRequest } from 'passport-jwt';
import { AppConfig } from '../platform/config/app-config';
import { InvalidTokenError } from '../platform/problem/problem.errors';
import type { AuthUser } from './auth-user';

export const MAX_SUBJECT_LENGTH = 255;

/**
 * Verifies bearer tokens (docs/api.md#authentication). The algorithms come from configuration, never from the token,
 * so `none` and algorithm confusion cannot work; `exp` and `sub` are required, and a header with
 * `crit` is refused: this service understands no JWS extension (RFC 7515 §4.1.11).
 */
@Injectable()
export class JwtStrategy extends PassportStrategy(Strategy) {
  constructor(config: AppConfig) {
    const { verification, issuer, audience } = config.auth;
    const options: StrategyOptionsWithoutRequest = {
      jwtFromRequest: ExtractJwt.fromAuthHeaderAsBearerToken(),
      algorithms: verification.algorithms,
      ignoreExpiration: false,
      // validate() gets the header too: jsonwebtoken ignores `crit`.
      jsonWebTokenOptions: { complete: true },
      issuer,
      audience,
      ...(verification.kind === 'secret'
        ? // A KeyObject made once: given a string, jsonwebtoken tries it as a public key first, and
          // that failure (an exception per request) cost more than the verification itself.
          { secretOrKey: createSecretKey(Buffer.from(verification.secret)) as unknown as string }
        : {
            secretOrKeyProvider: passportJwtSecret({
              jwksUri: verification.jwksUrl,
              cache: true,
              rateLimit: true,
              jwksRequestsPerMinute: 10,
            }),
          }),
    };
    super(options);
  }

  /** The caller but its address, which the bearer guard adds. */
  validate({
    header,
    payload,
  }: {
    header: JwtHeader & { crit?: unknown };
    payload: JwtPayload;
  }): Omit<AuthUser, 'clientAddress'> {
    if (header.crit !== undefined)
      throw new InvalidTokenError(
        "The token's header lists critical extensions (crit), which this service does not support.",
      );
    if (typeof payload.exp !== 'number') throw new InvalidTokenError('The token has no exp claim.');
    const { sub } = payload;
    // eslint-disable-next-line no-control-regex -- control characters are what this pattern exists to find
    if (typeof sub !== 'string' || sub.length === 0 || sub.length > MAX_SUBJECT_LENGTH || /[\x00-\x1f\x7f]/.test(sub)) {
      throw new InvalidTokenError(
        `The token's sub claim must be a string of 1-${MAX_SUBJECT_LENGTH} characters without control characters.`,
      );
    }
    return { id: sub };
  }
}
