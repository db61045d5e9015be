// The DataSource of the TypeORM CLI (`npm run migration:generate|run|revert`). The service itself
// migrates on start; the CLI needs a running server, so DATABASE_URL is required here.
import { DataSource } from 'typeorm';
import { dataSourceOptions } from './src/platform/database/data-source-options';
import { ENTITIES } from './src/entities';

const url = process.env.DATABASE_URL;
if (!url) throw new Error('Set DATABASE_URL to the PostgreSQL server the TypeORM CLI should use.');

export default new DataSource(dataSourceOptions(url, ENTITIES));
