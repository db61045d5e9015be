import 'reflect-metadata';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a provider's constructor takes anything
type Class<T = object> = abstract new (...args: any[]) => T;

// Read of any object by jest (printing, matching) or by await: answered as a plain object would.
const ASKED_OF_ANY_OBJECT = new Set<PropertyKey>(['then', 'asymmetricMatch', '$$typeof', 'nodeType', 'toJSON']);

/** The methods a class's instances have, from its prototype chain. */
function methodsOf(type: Class): Set<PropertyKey> {
  const methods = new Set<PropertyKey>();
  for (let proto: object | null = type.prototype as object; proto && proto !== Object.prototype;) {
    for (const key of Reflect.ownKeys(proto)) {
      const descriptor = Object.getOwnPropertyDescriptor(proto, key);
      if (key !== 'constructor' && typeof descriptor?.value === 'function') methods.add(key);
    }
    proto = Object.getPrototypeOf(proto) as object | null;
  }
  return methods;
}

/**
 * A typed mock whose every method fails loudly until a test sets it up, so that a call nobody
 * expected is an error rather than a silent `undefined`. Given the class it stands for, it also
 * fails on a read of any field the test did not set (a config section, a metric, `domain`).
 */
export function automock<T extends object>(name = 'mock', type?: Class<T>): jest.Mocked<T> {
  const methods = new Map<PropertyKey, jest.Mock>();
  const known = type && methodsOf(type);
  return new Proxy({} as jest.Mocked<T>, {
    get(target, property) {
      if (property in target) return target[property as keyof typeof target]; // set by the test
      if (typeof property === 'symbol' || ASKED_OF_ANY_OBJECT.has(property)) return undefined;
      if (known && !known.has(property)) throw new Error(`${name}.${property} was read but no test set it`);
      if (!methods.has(property)) {
        methods.set(
          property,
          jest.fn(() => {
            throw new Error(`${name}.${property}() was called but no test set it up`);
          }),
        );
      }
      return methods.get(property);
    },
  });
}

/** A provider built on mocks, and the mock given for each of its constructor's parameter types. */
export interface Automocked<S> {
  sut: S;
  mock<T extends object>(type: Class<T>): jest.Mocked<T>;
}

/**
 * A Nest provider built with an automock for every constructor parameter, found as Nest finds
 * them (the design:paramtypes metadata of its decorator), so that a spec names only the
 * collaborators its case uses, and a new one fails every spec that did not expect it. As
 * immich's newTestService: `const { sut, mock } = automockProvider(DeliveryClaim)`, then
 * `mock(Database).transaction.mockImplementation(...)`.
 */
export function automockProvider<S>(provider: Class<S> & (new (...args: never[]) => S)): Automocked<S> {
  const types = (Reflect.getMetadata('design:paramtypes', provider) as (Class | undefined)[] | undefined) ?? [];
  if (types.length !== provider.length)
    throw new Error(`${provider.name} has no design:paramtypes metadata: is it @Injectable()?`);
  const mocks = new Map<Class, object>();
  for (const [index, type] of types.entries()) {
    // An interface, a primitive or a type alias leaves Object (or a cycle, undefined): nothing to mock.
    if (typeof type !== 'function' || [Object, String, Number, Boolean, Array, Function].includes(type))
      throw new Error(`${provider.name}'s parameter ${index} has no class type to mock`);
    if (!mocks.has(type)) mocks.set(type, automock(type.name, type));
  }
  const sut = new (provider as new (...args: unknown[]) => S)(...types.map((type) => mocks.get(type!)));
  return {
    sut,
    mock<T extends object>(type: Class<T>): jest.Mocked<T> {
      const mock = mocks.get(type);
      if (!mock) throw new Error(`${provider.name} takes no ${type.name}`);
      return mock as jest.Mocked<T>;
    },
  };
}
