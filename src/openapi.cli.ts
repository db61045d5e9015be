// Prints the OpenAPI document of the built app (`node dist/src/openapi.cli.js`), the one /docs-json
// serves, without a database: Nest's preview mode registers the modules and routes but runs no
// provider, so nothing connects. The console's typed client is generated from it (scripts/build-console.js).
// With `--pinned-examples`, the one example that moves with the date (a scheduled send's
// `scheduledAt`, tomorrow at 09:00) is a fixed date instead: the SDK commits the document
// (scripts/sdk.js), which must not change by the day.
import 'reflect-metadata';
import { previewOpenApiDocument } from './openapi-preview';
import { SCHEDULED_AT_EXAMPLE } from './sender';

const PINNED_SCHEDULED_AT = '2026-03-02T09:00:00Z';

async function main(): Promise<void> {
  const document = JSON.stringify(await previewOpenApiDocument(), null, 2);
  const pinned = process.argv.includes('--pinned-examples');
  process.stdout.write(
    pinned ? document.replaceAll(`"${SCHEDULED_AT_EXAMPLE}"`, `"${PINNED_SCHEDULED_AT}"`) : document,
  );
}

main().catch((error: unknown) => {
  process.stderr.write(`${(error as Error).stack}\n`);
  process.exitCode = 1;
});
