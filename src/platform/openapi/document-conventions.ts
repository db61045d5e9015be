import type { OpenAPIObject } from '@nestjs/swagger';
import type { HeaderObject, OperationObject, ReferenceObject, SchemaObject } from '@nestjs/swagger';

const INTEGER = { type: 'integer' } as const;

/** Set on every answer by `assignRequestId`: the caller's own id when sane, else a new UUID. */
const REQUEST_ID: Record<string, HeaderObject> = {
  'X-Request-Id': {
    description: "This request's id, also in a problem's `requestId` and the logs",
    schema: { type: 'string' },
  },
};

/** Set by the rate-limit guard on every answer to a caller it counted (docs/api.md#rate-limits). */
const RATE_LIMIT: Record<string, HeaderObject> = {
  'RateLimit-Limit': { description: 'Requests allowed per minute (RATE_LIMIT_PER_MINUTE)', schema: INTEGER },
  'RateLimit-Remaining': { description: 'Requests left in this minute', schema: INTEGER },
  'RateLimit-Reset': { description: 'Seconds until the budget is whole again', schema: INTEGER },
};

// Answered before the rate-limit guard counts the caller, or without it.
const UNCOUNTED = new Set(['401', '500', '503']);

/**
 * Facts that hold for every operation, written into the document once rather than on each
 * decorator, so that a new endpoint cannot leave them out: the response headers the middleware
 * and guards set, and that JSON bodies are closed (the validation pipe refuses unknown fields).
 */
export function applyDocumentConventions(document: OpenAPIObject): void {
  for (const item of Object.values(document.paths)) {
    for (const operation of [item.get, item.put, item.post, item.delete, item.patch].filter(
      Boolean,
    ) as OperationObject[]) {
      const counted = (operation.security ?? []).length > 0;
      for (const [status, response] of Object.entries(operation.responses)) {
        if (!response || '$ref' in response) continue;
        response.headers = { ...response.headers, ...(counted && !UNCOUNTED.has(status) && RATE_LIMIT), ...REQUEST_ID };
      }
      const body =
        operation.requestBody && !('$ref' in operation.requestBody)
          ? operation.requestBody.content['application/json']
          : undefined;
      if (body?.schema) closeObjects(document, body.schema, new Set());
    }
  }
}

/** `additionalProperties: false` on a body's schema and the schemas it nests, as the server behaves. */
function closeObjects(document: OpenAPIObject, schema: SchemaObject | ReferenceObject, seen: Set<SchemaObject>): void {
  const target = '$ref' in schema ? document.components!.schemas![schema.$ref.split('/').pop()!] : schema;
  if ('$ref' in target || seen.has(target)) return;
  seen.add(target);
  if (target.type === 'object' && target.properties && target.additionalProperties === undefined)
    target.additionalProperties = false;
  const nested = [
    ...Object.values(target.properties ?? {}),
    ...(target.items ? [target.items] : []),
    ...(target.allOf ?? []),
  ];
  for (const inner of nested) closeObjects(document, inner, seen);
}
