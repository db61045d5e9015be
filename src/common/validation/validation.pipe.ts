import { ValidationError, ValidationPipe } from '@nestjs/common';
import type { FieldError } from '../problem/problem-details';
import { InvalidInputError } from '../problem/problem.errors';

/** The global pipe: DTOs are transformed, unknown fields refused, and every failing field reported. */
export function createValidationPipe(): ValidationPipe {
  return new ValidationPipe({
    transform: true,
    whitelist: true,
    forbidNonWhitelisted: true,
    forbidUnknownValues: true,
    validationError: { target: false, value: true },
    exceptionFactory: (errors) => new InvalidInputError(toFieldErrors(errors)),
  });
}

// When a value has the wrong type, its other rules are noise: report the type alone.
const TYPE_RULES = ['isString', 'isArray', 'isObject', 'isInt', 'isBoolean', 'isDate', 'nestedValidation'];

/**
 * Flattens class-validator's tree into one `{field, message}` per failing rule, with paths like
 * `attachments[1].content`, and messages that do not repeat the field's name.
 */
export function toFieldErrors(errors: ValidationError[], parent = ''): FieldError[] {
  return errors.flatMap((error) => {
    const field = !parent ? error.property : /^\d+$/.test(error.property) ? `${parent}[${error.property}]` : `${parent}.${error.property}`;
    return [...ownMessages(error).map((message) => ({ field, message })), ...toFieldErrors(error.children ?? [], field)];
  });
}

function ownMessages({ property, value, constraints = {} }: ValidationError): string[] {
  if (Object.keys(constraints).length === 0) return [];
  if (constraints.whitelistValidation) return ['is not a field of this request'];
  if (value === undefined || value === null) return ['is required'];
  const typeRule = TYPE_RULES.find((rule) => constraints[rule]);
  const messages = typeRule ? [constraints[typeRule]] : Object.values(constraints);
  return messages.map((message) => (message.startsWith(`${property} `) ? message.slice(property.length + 1) : message));
}
