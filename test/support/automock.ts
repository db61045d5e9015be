/**
 * A typed mock whose every method fails loudly until a test sets it up, so that a call nobody
 * expected is an error rather than a silent `undefined`.
 */
export function automock<T extends object>(name = 'mock'): jest.Mocked<T> {
  const methods = new Map<PropertyKey, jest.Mock>();
  return new Proxy({} as jest.Mocked<T>, {
    get(target, property) {
      if (property in target) return target[property as keyof typeof target]; // set by the test
      if (property === 'then') return undefined; // not a promise
      if (!methods.has(property)) {
        methods.set(
          property,
          jest.fn(() => {
            throw new Error(`${name}.${String(property)}() was called but no test set it up`);
          }),
        );
      }
      return methods.get(property);
    },
  });
}
