// The console's import boundaries (bulletproof-react's shape): app/ composes the features; a
// feature uses api/ and components/ but never another feature; api/ and components/ know no
// feature, and nothing imports in a circle. `npm run lint` runs it from the repository's root.
'use strict';
const { join } = require('node:path');

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'feature-imports-feature',
      comment: 'A feature imports from api/ and components/, never from another feature: share it there instead.',
      severity: 'error',
      from: { path: '^console/src/features/([^/]+)/' },
      to: { path: '^console/src/features/', pathNot: '^console/src/features/$1/' },
    },
    {
      name: 'shared-imports-feature',
      comment: 'api/ and components/ serve every feature, so they import none.',
      severity: 'error',
      from: { path: '^console/src/(api|components)/' },
      to: { path: '^console/src/features/' },
    },
    {
      name: 'shared-imports-app',
      comment: 'Only main.tsx imports app/: the router, providers and layout compose everything else.',
      severity: 'error',
      from: { path: '^console/src/', pathNot: ['^console/src/app/', '^console/src/main\\.tsx$'] },
      to: { path: '^console/src/app/' },
    },
    {
      name: 'no-circular',
      comment: 'A circle of imports has no first module to understand (or to load).',
      severity: 'error',
      from: { path: '^console/src/' },
      to: { circular: true },
    },
    {
      name: 'not-to-unresolvable',
      comment: 'An import that resolves to nothing fails the build later; say so here first.',
      severity: 'error',
      from: { path: '^console/src/' },
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // Type-only imports count: a circle through `import type` is still one the reader follows.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: join(__dirname, 'tsconfig.json') },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      mainFields: ['module', 'main', 'types', 'typings'],
    },
    exclude: { path: ['^console/generated/'] },
  },
};
