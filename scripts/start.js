// `npm start`: builds only when the sources changed since the last build, then runs the service
// in this same process, so that the signals npm forwards reach it (package.json execs this).
'use strict';
const { spawn } = require('node:child_process');
const { existsSync, readdirSync, readFileSync, statSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');

const ROOT = join(__dirname, '..');
/** What the build reads: a change to any of them (a directory's mtime covers a deleted file) rebuilds. */
const INPUTS = ['src', 'ormconfig.ts', 'tsconfig.json', 'tsconfig.build.json', 'nest-cli.json'];
const ENTRY = join('dist', 'src', 'main.js');
/** When the last successful build started, in ms since the epoch (nest build empties dist first). */
const STAMP = join('dist', '.build-started');

/** The newest mtime (ms) of `path` and everything below it; 0 when it does not exist. */
function newestMtime(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(path).reduce((newest, name) => Math.max(newest, newestMtime(join(path, name))), stat.mtimeMs);
}

/** Whether `root` needs a build: no build yet, or an input changed after the last one started. */
function needsBuild(root) {
  if (!existsSync(join(root, 'src'))) return false; // an image with dist only
  if (!existsSync(join(root, ENTRY)) || !existsSync(join(root, STAMP))) return true;
  const builtFrom = Number(readFileSync(join(root, STAMP), 'utf8'));
  return !(builtFrom > 0) || INPUTS.some((input) => newestMtime(join(root, input)) >= builtFrom);
}

/** `nest build`, ended by the signals this process gets; resolves once it succeeded. */
function build(root) {
  const startedAt = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [require.resolve('@nestjs/cli/bin/nest.js'), 'build'], {
      cwd: root,
      stdio: 'inherit',
    });
    const forward = (signal) => child.kill(signal);
    for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, forward);
    child.once('exit', (code, signal) => {
      for (const name of ['SIGINT', 'SIGTERM']) process.off(name, forward);
      if (code !== 0) return reject(new Error(`The build failed (${signal ?? `exit ${code}`}).`));
      writeFileSync(join(root, STAMP), String(startedAt));
      resolve();
    });
  });
}

async function main() {
  if (needsBuild(ROOT)) {
    process.stdout.write('Building (the sources changed since the last build)...\n');
    await build(ROOT);
  }
  // After the server's: the console's client is typed from the built server's API document.
  const { buildConsole, consoleNeedsBuild } = require('./build-console.js');
  if (consoleNeedsBuild()) {
    process.stdout.write('Building the console (its sources or the API changed since its last build)...\n');
    buildConsole();
  }
  require(join(ROOT, ENTRY));
}

if (require.main === module) {
  main().catch((error) => {
    process.stderr.write(`${error.message}\n`);
    process.exit(1);
  });
}

module.exports = { build, needsBuild, STAMP, ENTRY };
