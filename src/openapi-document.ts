import { INestApplication } from '@nestjs/common';
import { DocumentBuilder, OpenAPIObject, SchemaObject, SwaggerModule } from '@nestjs/swagger';
import { API_KEY_SECURITY } from './auth';
import { applyDocumentConventions } from './platform/openapi/document-conventions';
import { publishStatusGroups } from './messages';

/**
 * The OpenAPI document of the app's routes: served at /docs-json, and the source of the console's
 * typed client (scripts/build-console.js builds it from a preview of the app, which needs no database).
 */
export function buildOpenApiDocument(app: INestApplication, maxRecipients: number): OpenAPIObject {
  const document = SwaggerModule.createDocument(
    app,
    new DocumentBuilder()
      .setTitle('Mailroom')
      .setDescription(
        'Send email and read back your messages. Every operation needs a bearer token (JWT) whose `sub` is your user id: ' +
          'press **Authorize** and paste one (`npm run token -- --sub you`; in the Docker image ' +
          '`node dist/src/auth/token.cli.js --sub you`), or an API key from `POST /user/api-keys` (`Authorization: Bearer mr_…`), ' +
          'which reaches the operations of its scopes (`x-api-key-scope`; outside them 403). Errors are RFC 9457 `application/problem+json`.',
      )
      .setVersion('1')
      .addBearerAuth({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' })
      // The same header as the JWT's; declared as its own scheme so that each operation can say which scope a key needs.
      .addSecurity(API_KEY_SECURITY, {
        type: 'apiKey',
        in: 'header',
        name: 'Authorization',
        description:
          "An API key as a bearer token: paste `Bearer mr_…`. It reaches only the operations of its scopes (each operation's `x-api-key-scope`).",
      })
      .build(),
  );
  applyDocumentConventions(document);
  publishStatusGroups(document);
  // MAX_RECIPIENTS is configuration, so the document states this instance's limit.
  const sendBody = document.components!.schemas!.SendMessageDto as SchemaObject;
  (sendBody.properties!.to as SchemaObject).maxItems = maxRecipients;
  return document;
}
