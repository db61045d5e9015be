import { BadRequestException, CanActivate, ExecutionContext, Injectable, UnsupportedMediaTypeException } from '@nestjs/common';
import type { Request } from 'express';

const JSON_MEDIA_TYPE = /^application\/(?:[\w.+-]+\+)?json$/;

/**
 * A JSON endpoint answers 415 to any other body, and 400 to JSON that is not an object, rather
 * than validating an empty or meaningless one.
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
    if (body !== undefined && (typeof body !== 'object' || body === null || Array.isArray(body))) {
      throw new BadRequestException('The body must be a JSON object.');
    }
    return true;
  }
}
