import { QueryRunnerAlreadyReleasedError, QueryRunnerProviderAlreadyReleasedError } from 'typeorm';
import { isDatabaseUnavailable } from './database-unavailable';

const withCode = (code: string) => Object.assign(new Error(code), { code });

describe(isDatabaseUnavailable.name, () => {
  it.each([
    'ECONNREFUSED',
    'ECONNRESET',
    'ETIMEDOUT',
    'ENOTFOUND',
    '57P01',
    '57P02',
    '57P03',
    '53300',
    '08006',
    '08001',
    '08003',
  ])('recognises %s', (code) => {
    expect(isDatabaseUnavailable(withCode(code))).toBe(true);
  });

  it("looks inside TypeORM's wrapper, a cause and an AggregateError", () => {
    expect(isDatabaseUnavailable({ name: 'QueryFailedError', driverError: withCode('57P01') })).toBe(true);
    expect(isDatabaseUnavailable(new Error('timeout', { cause: withCode('ETIMEDOUT') }))).toBe(true);
    expect(isDatabaseUnavailable(new AggregateError([withCode('ECONNREFUSED'), withCode('ECONNREFUSED')]))).toBe(true);
  });

  it.each([new QueryRunnerAlreadyReleasedError(), new QueryRunnerProviderAlreadyReleasedError()])(
    "recognises TypeORM's runner released under a transaction whose connection was lost (%p)",
    (error) => {
      expect(isDatabaseUnavailable(error)).toBe(true);
    },
  );

  it.each(['23505', '42P01', '22P02', '40001', '57014', '08P01', 'ERR_INVALID_ARG_TYPE'])(
    'leaves %s to be a 500 (a fault of ours, not an outage)',
    (code) => {
      expect(isDatabaseUnavailable(withCode(code))).toBe(false);
    },
  );

  it.each([
    'Connection terminated unexpectedly',
    'Connection terminated due to connection timeout',
    'timeout exceeded when trying to connect',
  ])("recognises pg's uncoded error %p", (message) => {
    expect(isDatabaseUnavailable(new Error(message))).toBe(true);
  });

  it.each([
    undefined,
    null,
    'ECONNREFUSED',
    'Connection terminated unexpectedly',
    new Error('Connection terminated'),
    new Error('syntax error'),
  ])('says no to %p', (value) => {
    expect(isDatabaseUnavailable(value)).toBe(false);
  });
});
