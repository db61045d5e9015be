import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NestExpressApplication } from '@nestjs/platform-express';
import { Client } from 'pg';
import request from 'supertest';
import type TestAgent from 'supertest/lib/agent';
import { DataSource } from 'typeorm';
import { createApp } from '../../src/app.setup';
import { AppConfig } from '../../src/platform/config/app-config';
import { createDatabaseIfMissing } from '../../src/platform/database/embedded-postgres';

export const TEST_JWT_SECRET = 'test-secret-of-at-least-thirty-two-characters';

export interface TestApp {
  app: NestExpressApplication;
  http: TestAgent;
  db: DataSource;
  config: AppConfig;
  close(): Promise<void>;
}

/**
 * The real application on the run's test database; `env` overrides docs/configuration.md variables.
 * It runs as ROLE=api unless told otherwise, so that no test's worker delivers another test's
 * messages; tests of delivery ask for a database of their own (`isolatedDatabase`).
 */
export async function bootTestApp(
  env: Record<string, string> = {},
  options: { isolatedDatabase?: boolean } = {},
): Promise<TestApp> {
  const sharedUrl = process.env.TEST_DATABASE_URL;
  if (!sharedUrl)
    throw new Error('TEST_DATABASE_URL is set by test/support/global-setup.ts; run the e2e project with jest.');
  const databaseUrl = options.isolatedDatabase ? await createMigratedDatabase(sharedUrl) : sharedUrl;
  const dataDir = mkdtempSync(join(tmpdir(), 'mailroom-data-'));
  const config = AppConfig.fromEnvironment({
    NODE_ENV: 'test',
    ROLE: 'api',
    DATABASE_URL: databaseUrl,
    JWT_SECRET: TEST_JWT_SECRET,
    DATA_DIR: dataDir,
    // Set with DATABASE_URL naming a transaction pooler (global-setup.ts: TEST_DATABASE_ADMIN_URL).
    ...(process.env.DATABASE_POOL_MODE && { DATABASE_POOL_MODE: process.env.DATABASE_POOL_MODE }),
    ...env,
  });
  const app = await createApp(config);
  return {
    app,
    http: request(app.getHttpServer()),
    db: app.get(DataSource),
    config,
    close: async () => {
      await app.close();
      rmSync(dataDir, { recursive: true, force: true });
      if (options.isolatedDatabase) await dropDatabase(databaseUrl);
    },
  };
}

/** An empty database beside the shared one; the application migrates it when it starts. */
export async function createIsolatedDatabase(sharedUrl: string): Promise<string> {
  return createBeside(sharedUrl, (maintenanceUrl, name) => createDatabaseIfMissing(maintenanceUrl, name));
}

/**
 * A database beside the shared one, already as the migrations leave it: a copy of the template
 * global-setup.ts made (CREATE DATABASE … TEMPLATE), for suites that start an app on it anyway.
 * A suite that tests the start-up migration itself takes an empty one (createIsolatedDatabase).
 */
export async function createMigratedDatabase(sharedUrl: string): Promise<string> {
  const template = process.env.TEST_TEMPLATE_DATABASE;
  if (!template) throw new Error('TEST_TEMPLATE_DATABASE is set by test/support/global-setup.ts.');
  return createBeside(sharedUrl, async (maintenanceUrl, name) => {
    const client = new Client({ connectionString: maintenanceUrl });
    await client.connect();
    try {
      await client.query(`CREATE DATABASE "${name}" TEMPLATE "${template}"`);
    } finally {
      await client.end();
    }
  });
}

async function createBeside(
  sharedUrl: string,
  create: (maintenanceUrl: string, name: string) => Promise<void>,
): Promise<string> {
  const url = new URL(sharedUrl);
  const name = `${url.pathname.slice(1)}_${randomBytes(3).toString('hex')}`;
  url.pathname = '/postgres';
  await create(url.toString(), name);
  url.pathname = `/${name}`;
  return url.toString();
}

export async function dropDatabase(databaseUrl: string): Promise<void> {
  const url = new URL(databaseUrl);
  const name = url.pathname.slice(1);
  url.pathname = '/postgres';
  const client = new Client({ connectionString: url.toString() });
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  } finally {
    await client.end();
  }
}
