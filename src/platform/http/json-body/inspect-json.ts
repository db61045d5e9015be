import { BadRequestException } from '@nestjs/common';
import type { FieldError } from '../../problem/problem-details';
import { InvalidInputError } from '../../problem/problem.errors';

// Far beyond any request of ours (a send at every limit has a few hundred values, a batch of 100
// of them some 30,000); they bound the work of the walk below and of the validators after it,
// whatever a 20 MiB body holds (up to ten million values).
const MAX_DEPTH = 32;
const MAX_VALUES = 100_000;
// The validation pipe deletes these keys (prototype-pollution protection): refusing them is
// better than silently storing a customPayload without the key the caller sent.
const RESERVED_KEYS = new Set(['__proto__', 'constructor', 'prototype']);
// A surrogate without its pair (JSON may escape one, "\ud800"): no UTF-8 text can hold it, and
// PostgreSQL refuses it in json and in text alike.
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * Checks a parsed body for what no field rule should have to: it must be an object of at most
 * 100,000 values nested at most 32 levels deep, free of NUL characters and unpaired surrogates
 * (PostgreSQL text cannot hold them) and of reserved keys. Walks without recursion, so no body
 * can exhaust the stack.
 */
export function inspectJson(body: unknown): void {
  if (body === undefined) return;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new BadRequestException('The body must be a JSON object.');
  }
  const errors: FieldError[] = [];
  const pending: { value: unknown; path: string; depth: number }[] = [{ value: body, path: '', depth: 0 }];
  let values = 0;
  while (pending.length > 0 && errors.length < 20) {
    const { value, path, depth } = pending.pop()!;
    if (typeof value === 'string') {
      const problem = unstorable(value);
      if (problem) errors.push({ field: path, message: problem });
      continue;
    }
    if (typeof value !== 'object' || value === null) continue;
    if (depth >= MAX_DEPTH) {
      errors.push({ field: path, message: `is nested deeper than ${MAX_DEPTH} levels` });
      continue;
    }
    values += Array.isArray(value) ? value.length : Object.keys(value).length;
    if (values > MAX_VALUES) throw new BadRequestException(`The body holds more than ${MAX_VALUES} values.`);
    for (const [key, child] of Object.entries(value)) {
      const childPath = Array.isArray(value) ? `${path}[${key}]` : depth > 0 ? `${path}.${key}` : key;
      if (RESERVED_KEYS.has(key))
        errors.push({
          field: childPath,
          message: 'is a reserved name (__proto__, constructor and prototype cannot be keys)',
        });
      else if (unstorable(key)) errors.push({ field: printable(childPath), message: unstorable(key)! });
      else pending.push({ value: child, path: childPath, depth: depth + 1 });
    }
  }
  if (errors.length > 0) throw new InvalidInputError(errors);
}

function unstorable(text: string): string | undefined {
  if (text.includes('\0')) return 'must not contain NUL characters';
  if (LONE_SURROGATE.test(text)) return 'must not contain unpaired UTF-16 surrogates';
  return undefined;
}

/** A field path that can be shown in a problem body without breaking it. */
function printable(path: string): string {
  return path.replace(/\0/g, '\\0').replace(/[\ud800-\udfff]/g, (c) => `\\u${c.charCodeAt(0).toString(16)}`);
}
