// Preloaded (`node -r`) into a compiled script to prove that it runs on what the Docker image
// keeps (`npm prune --omit=dev`): loading any devDependency of package.json throws.
const Module = require('node:module');
const { devDependencies } = require('../../package.json');

const load = Module._load;
Module._load = function (request, ...rest) {
  const name = request.startsWith('@') ? request.split('/').slice(0, 2).join('/') : request.split('/')[0];
  if (Object.hasOwn(devDependencies, name)) throw new Error(`${request} is a devDependency, absent from the production image`);
  return load.call(this, request, ...rest);
};
