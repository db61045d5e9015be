import { InvalidInputError } from '../../platform/problem/problem.errors';
import { isDataException } from '../../platform/database/group-commit';
import type { SendRequest } from './send-request';

/**
 * A send that PostgreSQL refused for a value it cannot hold (SQLSTATE class 22, "data exception":
 * a NUL in text or JSON, an invalid byte sequence) is the input's fault: a 400 (554 over SMTP)
 * naming the field that holds a NUL when one does, instead of a 500. Anything else: undefined.
 */
export function unstorableValueError(
  error: unknown,
  requests: SendRequest[],
  { batch }: { batch: boolean },
): InvalidInputError | undefined {
  if (!isDataException(error)) return undefined;
  for (const [i, request] of requests.entries()) {
    const field = pathHoldingNul(request, '');
    if (field !== undefined)
      return new InvalidInputError([
        { field: batch ? `messages[${i}].${field}` : field, message: 'must not contain NUL characters' },
      ]);
  }
  return new InvalidInputError([
    { field: batch ? 'messages' : 'message', message: 'holds a value the database cannot store' },
  ]);
}

/** The path (`headers.X-A`, `to[1]`) of the first string within `value` that holds a NUL; the submitted MIME is not walked. */
function pathHoldingNul(value: unknown, path: string): string | undefined {
  if (typeof value === 'string') return value.includes('\0') ? path : undefined;
  if (typeof value !== 'object' || value === null || Buffer.isBuffer(value)) return undefined;
  for (const [key, child] of Object.entries(value)) {
    if (key === 'mime') continue;
    const found = pathHoldingNul(child, Array.isArray(value) ? `${path}[${key}]` : path ? `${path}.${key}` : key);
    if (found !== undefined) return found;
  }
  return undefined;
}
