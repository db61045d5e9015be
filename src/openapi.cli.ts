// Prints the OpenAPI document of the built app (`node dist/src/openapi.cli.js`), the one /docs-json
// serves, without a database: Nest's preview mode registers the modules and routes but runs no
// provider, so nothing connects. The console's typed client is generated from it (scripts/build-console.js).
import 'reflect-metadata';
import { previewOpenApiDocument } from './openapi-preview';

async function main(): Promise<void> {
  process.stdout.write(JSON.stringify(await previewOpenApiDocument(), null, 2));
}

main().catch((error: unknown) => {
  process.stderr.write(`${(error as Error).stack}\n`);
  process.exitCode = 1;
});
