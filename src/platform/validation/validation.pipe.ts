import { ArgumentMetadata, ValidationError, ValidationPipe } from '@nestjs/common';
import type { MetadataStorage } from 'class-transformer/types/MetadataStorage';
import type { FieldError } from '../problem/problem-details';
import { InvalidInputError } from '../problem/problem.errors';
import { meantField } from './meant-field';
import { entryMessages } from './validators';

// class-transformer's own record of @Type(): which properties hold nested DTOs (not in its public typings).
// eslint-disable-next-line @typescript-eslint/no-require-imports -- this cjs path ships no typings for `import`; the cast below gives it its type
const { defaultMetadataStorage } = require('class-transformer/cjs/storage') as {
  defaultMetadataStorage: MetadataStorage;
};

/** The global pipe: DTOs are transformed, unknown fields refused, and every failing field reported. */
export function createValidationPipe(): ValidationPipe {
  return new StrictValidationPipe({
    transform: true,
    whitelist: true,
    forbidNonWhitelisted: true,
    forbidUnknownValues: true,
    // The target (the object validated) tells which DTO an unknown field was sent to, to say what was meant.
    validationError: { target: true, value: true },
    exceptionFactory: (errors) => new InvalidInputError(toFieldErrors(errors)),
  });
}

/**
 * class-transformer skips input keys that name a method every object has (hasOwnProperty,
 * toString…), so the whitelist never sees such an unknown field: this pipe refuses them too.
 */
class StrictValidationPipe extends ValidationPipe {
  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    const hidden = hiddenUnknownFields(value, metadata);
    try {
      const transformed: unknown = await super.transform(value, metadata);
      if (hidden.length > 0) throw new InvalidInputError(hidden);
      return transformed;
    } catch (error) {
      if (error instanceof InvalidInputError && hidden.length > 0 && error.errors !== hidden)
        throw new InvalidInputError([...error.errors, ...hidden]);
      throw error;
    }
  }
}

function hiddenUnknownFields(value: unknown, { type, metatype }: ArgumentMetadata): FieldError[] {
  if ((type !== 'body' && type !== 'query') || !metatype) return [];
  return hiddenIn(value, metatype, '');
}

/** Walks the input alongside its DTO and the nested DTOs it declares with @Type (webhook, attachments[]). */
// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type -- class-validator and class-transformer key their metadata by the class as a Function, and hand it back as one
function hiddenIn(value: unknown, dto: Function, path: string): FieldError[] {
  if (typeof value !== 'object' || value === null) return [];
  if (Array.isArray(value)) return value.flatMap((item, i) => hiddenIn(item, dto, `${path}[${i}]`));
  return Object.entries(value).flatMap(([key, child]) => {
    const field = path ? `${path}.${key}` : key;
    if (key in Object.prototype && key !== '__proto__' && key !== 'constructor')
      return [{ field, message: 'is not a field of this request' }];
    const nested = defaultMetadataStorage.findTypeMetadata(dto, key)?.typeFunction();
    return nested ? hiddenIn(child, nested, field) : [];
  });
}

/** "is not a field of this request", and the field that was likely meant (`from`: `sender`), if any. */
// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type -- class-validator and class-transformer key their metadata by the class as a Function, and hand it back as one
function unknownFieldMessage(property: string, dto: Function | undefined): string {
  const meant = meantField(property, dto);
  return meant ? `is not a field of this request; did you mean \`${meant}\`?` : 'is not a field of this request';
}

// When a value has the wrong type, its other rules are noise: report the type alone.
const TYPE_RULES = ['isString', 'isArray', 'isObject', 'isInt', 'isBoolean', 'isDate', 'nestedValidation'];

/**
 * Flattens class-validator's tree into one `{field, message}` per failing rule, with paths like
 * `attachments[1].content`, and messages that do not repeat the field's name.
 */
export function toFieldErrors(errors: ValidationError[], parent = ''): FieldError[] {
  return errors.flatMap((error) => {
    const field = !parent
      ? error.property
      : /^\d+$/.test(error.property)
        ? `${parent}[${error.property}]`
        : `${parent}.${error.property}`;
    const own = ownMessages(error).flatMap(
      (message) =>
        entryMessages(message)?.map((entry) => ({ field: `${field}${entry.path}`, message: entry.message })) ?? [
          { field, message },
        ],
    );
    return [...own, ...toFieldErrors(error.children ?? [], field)];
  });
}

function ownMessages({ property, value, target, constraints = {} }: ValidationError): string[] {
  if (Object.keys(constraints).length === 0) return [];
  if (constraints.whitelistValidation) return [unknownFieldMessage(property, target?.constructor)];
  if (value === undefined || value === null) return [constraints.isRequiredWithout ?? 'is required'];
  const typeRule = TYPE_RULES.find((rule) => constraints[rule]);
  const messages = typeRule ? [constraints[typeRule]] : Object.values(constraints);
  return messages.map((message) => (message.startsWith(`${property} `) ? message.slice(property.length + 1) : message));
}
