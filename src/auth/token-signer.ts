import { sign } from 'jsonwebtoken';
import type { AppConfig } from '../platform/config/app-config';

/** `30m`, `1h`, `7d` or plain seconds. */
export function parseTtl(text: string): number {
  const match = /^(\d+)([smhd]?)$/.exec(text.trim());
  if (!match) throw new Error(`Invalid TTL "${text}": use seconds or a number with s, m, h or d (1h).`);
  const unit = { '': 1, s: 1, m: 60, h: 3600, d: 86400 }[match[2]]!;
  return Number(match[1]) * unit;
}

/** A token this instance accepts, for development and scripts; only possible with a shared HS256 key. */
export function signToken(config: AppConfig, subject: string, ttlSeconds: number): string {
  const { verification, issuer, audience } = config.auth;
  if (verification.kind !== 'secret') {
    throw new Error('Tokens are issued by your identity provider when JWT_JWKS_URL is set; Mailroom cannot sign them.');
  }
  return sign({}, verification.secret, {
    algorithm: 'HS256',
    subject,
    expiresIn: ttlSeconds,
    ...(issuer && { issuer }),
    ...(audience && { audience }),
  });
}
