import 'reflect-metadata';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NestExpressApplication } from '@nestjs/platform-express';
import request from 'supertest';
import type TestAgent from 'supertest/lib/agent';
import { DataSource } from 'typeorm';
import { createApp } from '../../src/app.setup';
import { AppConfig } from '../../src/config/app-config';

export const TEST_JWT_SECRET = 'test-secret-of-at-least-thirty-two-characters';

export interface TestApp {
  app: NestExpressApplication;
  http: TestAgent;
  db: DataSource;
  config: AppConfig;
  close(): Promise<void>;
}

/** The real application on the run's test database; `env` overrides SPEC §1 variables. */
export async function bootTestApp(env: Record<string, string> = {}): Promise<TestApp> {
  const databaseUrl = process.env.TEST_DATABASE_URL;
  if (!databaseUrl) throw new Error('TEST_DATABASE_URL is set by test/support/global-setup.ts; run the e2e project with jest.');
  const dataDir = mkdtempSync(join(tmpdir(), 'mailroom-data-'));
  const config = AppConfig.fromEnvironment({
    NODE_ENV: 'test',
    DATABASE_URL: databaseUrl,
    JWT_SECRET: TEST_JWT_SECRET,
    DATA_DIR: dataDir,
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
    },
  };
}
