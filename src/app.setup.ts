import { INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { NestExpressApplication } from '@nestjs/platform-express';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import { Logger } from 'nestjs-pino';
import { AppModule } from './app.module';
import { answerParserErrorsAsProblems } from './common/problem/client-error';
import { assignRequestId } from './common/request-id';
import { createValidationPipe } from './common/validation/validation.pipe';
import { useNestForValidationRules } from './common/validation/validation-rules.container';
import { MaxRecipientsRule } from './sender/dto/max-recipients.rule';
import { AppConfig } from './config/app-config';

/** The application exactly as it serves: `main.ts` listens on it, the e2e tests call it. */
export async function createApp(config: AppConfig): Promise<NestExpressApplication> {
  const app = await NestFactory.create<NestExpressApplication>(AppModule.forRoot(config), {
    // Bodies are read per route, after authentication (JsonBodyInterceptor).
    bodyParser: false,
    bufferLogs: true,
    // A failure is reported to the caller of createApp, never answered with process.abort().
    abortOnError: false,
  });
  app.useLogger(app.get(Logger));
  app.disable('x-powered-by');
  answerParserErrorsAsProblems(app.getHttpServer());
  app.use(assignRequestId);
  app.useGlobalPipes(createValidationPipe());
  useNestForValidationRules(app, [MaxRecipientsRule]);
  setUpSwagger(app);
  await app.init();
  return app;
}

function setUpSwagger(app: INestApplication): void {
  const document = SwaggerModule.createDocument(
    app,
    new DocumentBuilder()
      .setTitle('Mailroom')
      .setDescription(
        'Send email and read back your messages. Every operation needs a bearer token (JWT) whose `sub` is your user id: ' +
          'press **Authorize** and paste one (`npm run token -- --sub you`). Errors are RFC 9457 `application/problem+json`.',
      )
      .setVersion('1')
      .addBearerAuth({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' })
      .build(),
  );
  SwaggerModule.setup('docs', app, document, {
    jsonDocumentUrl: 'docs-json',
    swaggerOptions: { persistAuthorization: true },
  });
}
