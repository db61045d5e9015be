import { INestApplicationContext, Type } from '@nestjs/common';
import { useContainer } from 'class-validator';

/**
 * Lets class-validator take the given constraint classes from Nest, so that they can inject
 * configuration; it builds every other class itself, without a failed look-up per request.
 */
export function useNestForValidationRules(app: INestApplicationContext, rules: Type[]): void {
  const instances = new Map<unknown, unknown>(rules.map((rule) => [rule, app.get(rule, { strict: false })]));
  useContainer({ get: (someClass: unknown) => instances.get(someClass) }, { fallback: true });
}
