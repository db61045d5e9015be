// Node's socket errors when the server cannot be reached or drops the connection.
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

// SQLSTATEs of a server that is shutting down, starting, crashed or full (Appendix A of the
// PostgreSQL manual); class 08 (connection exception) is matched as a whole but for 08P01, a
// protocol violation: a fault of the client's statements, not an outage.
const SERVER_CODES = new Set(['57P01', '57P02', '57P03', '53300']);

// pg's own errors for a connection lost without a server message (a network drop, a killed
// server) or never made in time; they carry no code, so their fixed texts are all there is.
const CONNECTION_LOST_MESSAGES = new Set([
  'Connection terminated unexpectedly',
  'Connection terminated due to connection timeout',
  'timeout exceeded when trying to connect',
  'Client has encountered a connection error and is not queryable',
]);

/**
 * TypeORM releases a transaction's query runner early only when its connection reports an error
 * between statements (a restart's goodbye to an idle-in-transaction session, a dropped network);
 * the transaction's next statement then fails with one of these (the first from the runner, the
 * second from `manager.query`), without a cause. Our code never queries a runner after its
 * transaction, so they mean a lost connection.
 */
const RELEASED_BY_LOST_CONNECTION = new Set([
  'QueryRunnerAlreadyReleasedError',
  'QueryRunnerProviderAlreadyReleasedError',
]);

/**
 * Whether `error` says that PostgreSQL cannot be reached right now, rather than that a statement
 * is wrong: read from the error's code, on TypeORM's wrapper, its driver error, or a cause.
 */
export function isDatabaseUnavailable(error: unknown, depth = 0): boolean {
  if (typeof error !== 'object' || error === null || depth > 3) return false;
  const { name, code, message, driverError, cause, errors } = error as {
    name?: unknown;
    code?: unknown;
    message?: unknown;
    driverError?: unknown;
    cause?: unknown;
    errors?: unknown;
  };
  if (typeof name === 'string' && RELEASED_BY_LOST_CONNECTION.has(name)) return true;
  if (typeof message === 'string' && CONNECTION_LOST_MESSAGES.has(message)) return true;
  if (
    typeof code === 'string' &&
    (NETWORK_CODES.has(code) || SERVER_CODES.has(code) || (code.startsWith('08') && code !== '08P01'))
  )
    return true;
  // An AggregateError: Node tried each address of a host name.
  const nested = [driverError, cause, ...(Array.isArray(errors) ? (errors as unknown[]) : [])];
  return nested.some((inner) => isDatabaseUnavailable(inner, depth + 1));
}
