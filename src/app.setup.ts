import { INestApplication, LoggerService } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { NestExpressApplication } from '@nestjs/platform-express';
import { SwaggerModule } from '@nestjs/swagger';
import { Logger } from 'nestjs-pino';
import { AppModule } from './app.module';
import { HttpDrain } from './platform/http/http-drain';
import { answerParserErrorsAsProblems } from './platform/problem/client-error';
import { assignRequestId } from './platform/http/request-id';
import { createValidationPipe } from './platform/validation/validation.pipe';
import { useNestForValidationRules } from './platform/validation/validation-rules.container';
import { onlyOperationalRoutes } from './platform/health/operational-routes';
import { MaxRecipientsRule } from './sender';
import { ReachableWebhookUrlRule } from './webhooks';
import { AppConfig } from './platform/config/app-config';
import { buildOpenApiDocument } from './openapi-document';
import { serveConsole } from './console-files';

/**
 * The application exactly as it serves: `main.ts` listens on it, the e2e tests call it.
 * `drain` is what stops its HTTP side gracefully on shutdown.
 */
export async function createApp(config: AppConfig, drain = new HttpDrain()): Promise<NestExpressApplication> {
  const app = await NestFactory.create<NestExpressApplication>(AppModule.forRoot(config, drain), {
    // Bodies are read per route, after authentication (JsonBodyInterceptor).
    bodyParser: false,
    bufferLogs: true,
    // A failure is reported to the caller of createApp, never answered with process.abort().
    abortOnError: false,
  });
  app.useLogger(withQuietStartUp(app.get(Logger)));
  app.disable('x-powered-by');
  // No ETag: every answer is one caller's and changes with each mail, so a conditional GET would
  // still run its query; the hash of every body cost a send 0.02 ms of CPU (docs/performance.md).
  app.set('etag', false);
  // req.ip and req.protocol as clientAddress decides (TRUST_PROXY): one rule, whoever reads them.
  app.set('trust proxy', (address: string) => config.trustedProxies.trusts(address));
  answerParserErrorsAsProblems(app.getHttpServer());
  app.use(assignRequestId);
  drain.attach(app.getHttpServer());
  app.use(drain.middleware);
  if (config.role === 'worker') app.use(onlyOperationalRoutes);
  app.useGlobalPipes(createValidationPipe());
  useNestForValidationRules(app, [MaxRecipientsRule, ReachableWebhookUrlRule]);
  if (config.role !== 'worker') {
    setUpSwagger(app);
    serveConsole(app);
  }
  await app.init();
  return app;
}

/** Nest's start-up lines, one per module and one per route: at debug, so that they bury no banner. */
const START_UP_CHATTER = new Set(['InstanceLoader', 'RoutesResolver', 'RouterExplorer']);

function withQuietStartUp(logger: Logger): LoggerService {
  const quiet: Pick<LoggerService, 'log'> = {
    log: (message: unknown, ...params: unknown[]) =>
      START_UP_CHATTER.has(params.at(-1) as string) ? logger.debug(message, ...params) : logger.log(message, ...params),
  };
  // Everything else is the pino logger's own.
  return Object.assign(Object.create(logger) as Logger, quiet);
}

function setUpSwagger(app: INestApplication): void {
  const document = buildOpenApiDocument(app, app.get(AppConfig).limits.maxRecipients);
  SwaggerModule.setup('docs', app, document, {
    jsonDocumentUrl: 'docs-json',
    swaggerOptions: { persistAuthorization: true },
  });
}
