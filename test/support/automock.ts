import 'reflect-metadata';

type Class<T = object> = abstract new (...args: any[]) => T;

// Read of any object by jest (printing, matching, telling a jasmine spy) or by await: answered as
// a plain object or a jest.fn would.
const ASKED_OF_ANY_OBJECT = new Set<PropertyKey>([
  'then',
  'asymmetricMatch',
  '$$typeof',
  'nodeType',
  'toJSON',
  'calls',
]);

/**
 * A typed mock whose every method fails loudly until a test sets it up, so that a call nobody
 * expected is an error rather than a silent `undefined`; so does a field read as an object (a
 * config section, a metric) that the test did not set.
 */
export function automock<T extends object>(name = 'mock'): jest.Mocked<T> {
  const members = new Map<PropertyKey, jest.Mock>();
  return new Proxy({} as jest.Mocked<T>, {
    get(target, property) {
      if (property in target) return target[property as keyof typeof target]; // set by the test
      if (typeof property === 'symbol' || ASKED_OF_ANY_OBJECT.has(property)) return undefined;
      if (!members.has(property)) members.set(property, unset(`${name}.${property}`));
      return members.get(property);
    },
  });
}

/**
 * A member nobody set: a jest.fn (so that a test can set it up as a method, abstract ones
 * included) that throws when called, or when read as an object.
 */
function unset(name: string): jest.Mock {
  const method = jest.fn(() => {
    throw new Error(`${name}() was called but no test set it up`);
  });
  return new Proxy(method, {
    get(target, key) {
      if (typeof key === 'symbol' || key in target || ASKED_OF_ANY_OBJECT.has(key))
        return Reflect.get(target, key) as unknown;
      throw new Error(`${name}.${key} was read but no test set ${name}`);
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
    if (typeof type !== 'function' || ([Object, String, Number, Boolean, Array, Function] as unknown[]).includes(type))
      throw new Error(`${provider.name}'s parameter ${index} has no class type to mock`);
    if (!mocks.has(type)) mocks.set(type, automock(type.name));
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
