// `npm run lint`'s checks, in two lanes at once: ESLint's type-aware rules take about as long as
// the other checks together, and each is one process on one core. Every check's output is printed
// whole when it ends; the lint fails when any check does, after all have run.
'use strict';
const { spawn } = require('node:child_process');

const LANES = [
  [['eslint', '.']],
  [
    ['tsc', '--noEmit', '-p', 'tsconfig.json'],
    ['tsc', '--noEmit', '-p', 'packages/sdk/tsconfig.json'],
    ['prettier', '--check', '.'],
    ['depcruise', 'console/src', '--config', 'console/.dependency-cruiser.cjs'],
    ['depcruise', 'src', '--config', '.dependency-cruiser.cjs'],
  ],
];

function run([command, ...args]) {
  return new Promise((resolve) => {
    const child = spawn(`node_modules/.bin/${command}`, args, { cwd: `${__dirname}/..` });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('close', (code) => {
      process.stdout.write(`--- ${[command, ...args].join(' ')}: ${code === 0 ? 'passed' : 'FAILED'}\n${output}`);
      resolve(code === 0);
    });
  });
}

async function lane(checks) {
  const results = [];
  for (const check of checks) results.push(await run(check));
  return results;
}

Promise.all(LANES.map(lane)).then((results) => {
  if (results.flat().includes(false)) process.exitCode = 1;
});
