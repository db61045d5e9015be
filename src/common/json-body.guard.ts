import { BadRequestException, CanActivate, ExecutionContext, Injectable, UnsupportedMediaTypeException } from '@nestjs/common';
import type { Request } from 'express';
import type { FieldError } from './problem/problem-details';
import { InvalidInputError } from './problem/problem.errors';

const JSON_MEDIA_TYPE = /^application\/(?:[\w.+-]+\+)?json$/;

// The validation pipe deletes these keys (prototype-pollution protection): refusing them is
// better than silently storing a customPayload without the key the caller sent.
const RESERVED_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/**
 * A JSON endpoint answers 415 to any other body, and 400 to JSON that is not an object or that
 * uses a reserved key, rather than validating an empty, meaningless or silently trimmed one.
 */
@Injectable()
export class JsonBodyGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<Request>();
    const mediaType = (request.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
    if (!JSON_MEDIA_TYPE.test(mediaType)) {
      throw new UnsupportedMediaTypeException('The body must be JSON, sent with Content-Type: application/json.');
    }
    const body: unknown = request.body;
    if (body === undefined) return true;
    if (typeof body !== 'object' || body === null || Array.isArray(body)) {
      throw new BadRequestException('The body must be a JSON object.');
    }
    const reserved = reservedKeyPaths(body, '');
    if (reserved.length > 0) throw new InvalidInputError(reserved);
    return true;
  }
}

function reservedKeyPaths(value: unknown, path: string): FieldError[] {
  if (typeof value !== 'object' || value === null) return [];
  return Object.keys(value).flatMap((key) => {
    const child = Array.isArray(value) ? `${path}[${key}]` : path ? `${path}.${key}` : key;
    return RESERVED_KEYS.has(key)
      ? [{ field: child, message: 'is a reserved name (__proto__, constructor and prototype cannot be keys)' }]
      : reservedKeyPaths((value as Record<string, unknown>)[key], child);
  });
}
