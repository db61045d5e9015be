// The TypeScript SDK (packages/sdk, docs in its README): `node scripts/sdk.js generate` writes the
// OpenAPI document of the built app (dist/, as scripts/build-console.js reads it) and the types
// openapi-typescript makes of it into the package, both committed; `build` compiles the package
// twice (ES modules and CommonJS) into packages/sdk/dist; `docs` writes its reference into
// packages/sdk/docs (committed); `size` prints the gzip size of what a
// user's bundler pulls in. A test (packages/sdk/test/generated.spec.ts) fails when the committed
// document is not the one the server's sources now serve, or the types are not the ones it makes.
'use strict';
const { execFileSync } = require('node:child_process');
const { mkdtempSync, readFileSync, rmSync, writeFileSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const { gzipSync } = require('node:zlib');

const ROOT = join(__dirname, '..');
const SDK = join(ROOT, 'packages', 'sdk');
const DOCUMENT = join(SDK, 'openapi.json');
const TYPES = join(SDK, 'src', 'generated', 'openapi.ts');

function node(script, args) {
  execFileSync(process.execPath, [script, ...args], { cwd: ROOT, stdio: ['ignore', 'inherit', 'inherit'] });
}

/** The options the types are made with; the staleness test makes them again with the same ones. */
const TYPE_OPTIONS = [
  // A body field with a default (a message's priority) is still optional to send.
  '--default-non-nullable=false',
  // Each enum's values as an array too (the statuses a caller may filter by).
  '--enum-values',
];

function generateTypes(document, output) {
  node(join(ROOT, 'node_modules', 'openapi-typescript', 'bin', 'cli.js'), [
    document,
    ...TYPE_OPTIONS,
    '--output',
    output,
  ]);
  // The reference documents the client, not these (Swagger UI documents the API): TypeDoc leaves
  // out the category (packages/sdk/typedoc.json), yet still reads their fields into the client's
  // interfaces that extend them.
  const types = readFileSync(output, 'utf8').replace(
    /^export interface (paths|components) \{/gm,
    '/** @category Generated */\nexport interface $1 {',
  );
  writeFileSync(output, types);
}

function generate() {
  const document = execFileSync(process.execPath, [join(ROOT, 'dist', 'src', 'openapi.cli.js'), '--pinned-examples'], {
    cwd: ROOT,
  });
  writeFileSync(DOCUMENT, `${document.toString('utf8').trimEnd()}\n`);
  generateTypes(DOCUMENT, TYPES);
}

function build() {
  const tsc = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
  rmSync(join(SDK, 'dist'), { recursive: true, force: true });
  node(tsc, ['-p', join(SDK, 'tsconfig.esm.json')]);
  node(tsc, ['-p', join(SDK, 'tsconfig.cjs.json')]);
  // Each output folder says how Node reads its .js files, whatever the package's own type.
  writeFileSync(join(SDK, 'dist', 'esm', 'package.json'), '{ "type": "module", "sideEffects": false }\n');
  writeFileSync(join(SDK, 'dist', 'cjs', 'package.json'), '{ "type": "commonjs", "sideEffects": false }\n');
}

/** `types <file>`: the types the committed document makes, written elsewhere (the staleness test compares them). */
function types() {
  generateTypes(DOCUMENT, process.argv[3]);
}

/**
 * `docs [dir]`: the reference, TypeDoc's Markdown of what the package exports (packages/sdk/typedoc.json),
 * into packages/sdk/docs, or into `dir` (the staleness test compares the two).
 */
function docs() {
  const out = process.argv[3] ?? join(SDK, 'docs');
  rmSync(out, { recursive: true, force: true });
  node(join(ROOT, 'node_modules', 'typedoc', 'bin', 'typedoc'), [
    '--options',
    join(SDK, 'typedoc.json'),
    '--out',
    out,
    '--logLevel',
    'Warn',
    '--treatWarningsAsErrors',
  ]);
}

/**
 * The gzip size of what a user's bundler ships, minified with the one runtime dependency
 * (openapi-fetch): for the whole client, and for `verifyWebhook` alone (tree-shaking). Rolldown is
 * Vite's bundler, already installed for the console. After `build`.
 */
async function size() {
  const { build: bundle } = await import('rolldown');
  const dir = mkdtempSync(join(tmpdir(), 'mailroom-sdk-size-'));
  const entries = {
    'the whole client': "export * from '@mailroom/sdk';",
    'new Mailroom(…) only': "export { Mailroom } from '@mailroom/sdk';",
    'verifyWebhook only': "export { verifyWebhook } from '@mailroom/sdk';",
  };
  try {
    for (const [name, source] of Object.entries(entries)) {
      const input = join(dir, 'entry.mjs');
      writeFileSync(input, source);
      const result = await bundle({
        input,
        resolve: { alias: { '@mailroom/sdk': join(SDK, 'dist', 'esm', 'index.js') } },
        output: { format: 'esm', minify: true },
        write: false,
        logLevel: 'silent',
      });
      const code = result.output.map((chunk) => chunk.code ?? '').join('');
      const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;
      process.stdout.write(`${name}: ${kb(code.length)} minified, ${kb(gzipSync(code).length)} gzip\n`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const COMMANDS = { generate, build, types, docs, size };

if (require.main === module) {
  const command = COMMANDS[process.argv[2]];
  if (!command) {
    process.stderr.write(`usage: node scripts/sdk.js ${Object.keys(COMMANDS).join('|')}\n`);
    process.exit(2);
  }
  Promise.resolve(command()).catch((error) => {
    process.stderr.write(`${error.stack}\n`);
    process.exit(1);
  });
}
