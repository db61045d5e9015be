// Prints the OpenAPI document of the built app (`node dist/src/openapi.cli.js`), the one /docs-json
// serves, without a database: Nest's preview mode registers the modules and routes but runs no
// provider, so nothing connects. The console's typed client is generated from it (scripts/build-console.js).
import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { AppModule } from './app.module';
import { HttpDrain } from './common/http-drain';
import { AppConfig } from './config/app-config';
import { buildOpenApiDocument } from './openapi-document';

/** Placeholders for what the configuration requires; preview mode never uses them. */
const PREVIEW_ENVIRONMENT = {
  NODE_ENV: 'development',
  ROLE: 'api',
  DATABASE_URL: 'postgres://preview.invalid/none',
  JWT_SECRET: 'p'.repeat(32),
  WEBHOOK_SIGNING_KEY: 'p'.repeat(32),
  DATA_ENCRYPTION_KEY: 'p'.repeat(32),
};

async function main(): Promise<void> {
  const config = AppConfig.fromEnvironment(PREVIEW_ENVIRONMENT);
  const app = await NestFactory.create(AppModule.forRoot(config, new HttpDrain()), {
    preview: true,
    logger: false,
    abortOnError: false,
  });
  process.stdout.write(JSON.stringify(buildOpenApiDocument(app, config.limits.maxRecipients), null, 2));
}

main().catch((error: unknown) => {
  process.stderr.write(`${(error as Error).stack}\n`);
  process.exitCode = 1;
});
