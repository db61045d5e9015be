import { NestFactory } from '@nestjs/core';
import type { OpenAPIObject } from '@nestjs/swagger';
import { AppModule } from './app.module';
import { HttpDrain } from './platform/http/http-drain';
import { AppConfig } from './platform/config/app-config';
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

/**
 * The document /docs-json serves, without a database: Nest's preview mode registers the modules
 * and routes but runs no provider, so nothing connects (the console's build types its client from it).
 */
export async function previewOpenApiDocument(): Promise<OpenAPIObject> {
  const config = AppConfig.fromEnvironment(PREVIEW_ENVIRONMENT);
  const app = await NestFactory.create(AppModule.forRoot(config, new HttpDrain()), {
    preview: true,
    logger: false,
    abortOnError: false,
  });
  try {
    return buildOpenApiDocument(app, config.limits.maxRecipients);
  } finally {
    await app.close();
  }
}
