import type { DataSource } from 'typeorm';
import type { DatabasePoolMode } from '../config/app-config';

const modes = new WeakMap<DataSource, DatabasePoolMode>();

/**
 * DATABASE_POOL_MODE, kept beside the DataSource it describes, so that code holding only a
 * DataSource or an EntityManager (preparedInTransaction) knows whether a named statement or a
 * session setting would outlive its transaction's server connection (docs/configuration.md).
 */
export function setPoolMode(dataSource: DataSource, mode: DatabasePoolMode): void {
  modes.set(dataSource, mode);
}

/** `session` unless said otherwise: a direct connection, as tests and the CLI open them. */
export function poolModeOf(dataSource: DataSource): DatabasePoolMode {
  return modes.get(dataSource) ?? 'session';
}
