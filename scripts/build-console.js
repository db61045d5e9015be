// Builds the console (console/, docs/architecture.md#the-console) into console/dist: the OpenAPI document of the built app
// (dist/, made without a database), the client's types generated from it, a type-check of the
// console against them (a field the document lacks fails the build), then Vite's bundle.
// `node scripts/build-console.js` after `nest build`; `npm run build` runs both.
'use strict';
const { execFileSync } = require('node:child_process');
const { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');

const ROOT = join(__dirname, '..');
const CONSOLE = join(ROOT, 'console');
const GENERATED = join(CONSOLE, 'generated');
const OUT = join(CONSOLE, 'dist');
/** When the last successful console build started (ms since the epoch); Vite empties OUT first. */
const STAMP = join(OUT, '.build-started');
/** What the console's build reads besides the server's build (whose document it types against). */
const INPUTS = ['src', 'index.html', 'vite.config.mts', 'tsconfig.json'].map((name) => join(CONSOLE, name));
const SERVER_STAMP = join(ROOT, 'dist', '.build-started');

function newestMtime(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(path).reduce((newest, name) => Math.max(newest, newestMtime(join(path, name))), stat.mtimeMs);
}

/** No console build yet, or its sources or the server's build are newer than it. */
function consoleNeedsBuild() {
  if (!existsSync(join(CONSOLE, 'src'))) return false; // an image with the built console only
  if (!existsSync(STAMP)) return true;
  const builtFrom = Number(readFileSync(STAMP, 'utf8'));
  return !(builtFrom > 0) || [...INPUTS, SERVER_STAMP].some((input) => newestMtime(input) >= builtFrom);
}

function run(script, args, env = process.env) {
  execFileSync(process.execPath, [script, ...args], { cwd: ROOT, stdio: ['ignore', 'inherit', 'inherit'], env });
}

function buildConsole() {
  const startedAt = Date.now();
  mkdirSync(GENERATED, { recursive: true });
  const document = execFileSync(process.execPath, [join(ROOT, 'dist', 'src', 'openapi.cli.js')], { cwd: ROOT });
  writeFileSync(join(GENERATED, 'openapi.json'), document);
  run(join(ROOT, 'node_modules', 'openapi-typescript', 'bin', 'cli.js'), [
    join(GENERATED, 'openapi.json'),
    // A body field with a default is still optional to send.
    '--default-non-nullable=false',
    // Each enum's values as an array too: the console imports the status groups rather than rewriting them.
    '--enum-values',
    '--output',
    join(GENERATED, 'openapi.ts'),
  ]);
  run(join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), ['--noEmit', '-p', join(CONSOLE, 'tsconfig.json')]);
  // Always React's production build: under jest (NODE_ENV=test, the browser tests' --if-needed
  // build) Vite would keep that NODE_ENV and bundle React's development build, 60 % larger, into
  // the console/dist that `npm start` then serves.
  run(join(ROOT, 'node_modules', 'vite', 'bin', 'vite.js'), ['build', CONSOLE, '--logLevel', 'warn'], {
    ...process.env,
    NODE_ENV: 'production',
  });
  writeFileSync(STAMP, String(startedAt));
}

/** `--if-needed` (the browser tests): the server's build first when its sources changed, then the console's when stale. */
async function main(ifNeeded) {
  if (ifNeeded) {
    const { build, needsBuild } = require('./start.js');
    if (needsBuild(ROOT)) await build(ROOT);
    if (!consoleNeedsBuild()) return;
  }
  buildConsole();
}

if (require.main === module) {
  main(process.argv.includes('--if-needed')).catch((error) => {
    process.stderr.write(`The console's build failed: ${error.message}\n`);
    process.exit(1);
  });
}

module.exports = { buildConsole, consoleNeedsBuild, CONSOLE_DIST: OUT };
