// ESLint with typescript-eslint's type-aware rules for an async server; Prettier owns the layout.
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

/** The few Node globals the plain-JavaScript files (scripts, jest's config and hooks) use. */
const nodeGlobals = Object.fromEntries(
  ['require', 'module', 'process', '__dirname', 'console', 'Buffer', 'URL', 'setTimeout', 'clearTimeout'].map(
    (name) => [name, 'readonly'],
  ),
);

export default tseslint.config(
  {
    ignores: [
      'dist/',
      'node_modules/',
      'data/',
      'coverage/',
      'bench/out/',
      'console/dist/',
      'console/generated/',
      'packages/sdk/dist/',
      'packages/sdk/src/generated/',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      // An async server: a promise nobody awaits is an error nobody sees, and one passed where a
      // callback's result is ignored (an express handler, an event listener) fails the same way.
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      // A leading underscore names a binding the code must write but does not read: a loop that
      // only counts (`for (const _ of text)`), a parameter a signature requires, a field left out
      // of a rest spread.
      '@typescript-eslint/no-unused-vars': [
        'error',
        { varsIgnorePattern: '^_', argsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' },
      ],
    },
  },
  {
    // Tests and benchmarks read what the server sent back: supertest's res.body, JSON.parse of a
    // child's output, pg's rows are all `any`, and the test's expect() is the check of their shape.
    // Typing ~2,000 such reads would be casts nothing verifies (a wrong cast passes just the same),
    // so the no-unsafe-* family, which only warns about that `any`, is off here, and so is
    // no-explicit-any, which a test writes for the same bodies (`(d: any) => d.id` over a list it
    // got back). src/ keeps all of them.
    files: ['test/**/*.ts', 'src/**/*.spec.ts', 'bench/**/*.ts'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
  {
    // The SDK names each answer and body the API has as an interface extending its generated
    // schema (`interface Email extends Shape<Schemas['MessageResponse']> {}`): an alias would be
    // the same type, but editors and the generated reference show an interface by its name and fields.
    files: ['packages/sdk/src/**/*.ts'],
    rules: { '@typescript-eslint/no-empty-object-type': ['error', { allowInterfaces: 'with-single-extends' }] },
  },
  {
    // A unit spec asserts on a jest mock by reference (`expect(repository.find).toHaveBeenCalledWith`):
    // the mock has no `this` to lose, which is what unbound-method guards against (typescript-eslint
    // itself points jest users to a jest-aware variant of the rule for this reason).
    files: ['src/**/*.spec.ts'],
    rules: { '@typescript-eslint/unbound-method': 'off' },
  },
  {
    // The console (a React app): the rules of hooks and the React Compiler's checks, and the
    // accessibility of its JSX. Its import boundaries are dependency-cruiser's
    // (console/.dependency-cruiser.cjs, run by `npm run lint`).
    files: ['console/**/*.{ts,tsx}'],
    ...reactHooks.configs.flat.recommended,
    ...jsxA11y.flatConfigs.recommended,
    name: 'console',
    plugins: { ...reactHooks.configs.flat.recommended.plugins, ...jsxA11y.flatConfigs.recommended.plugins },
    rules: {
      ...reactHooks.configs.flat.recommended.rules,
      ...jsxA11y.flatConfigs.recommended.rules,
      // A warning passes `npm run lint`, so a missing dependency would go unseen: an error here.
      'react-hooks/exhaustive-deps': 'error',
    },
  },
  {
    // Outside the TypeScript project: no type information to check against.
    files: ['**/*.js', '**/*.mjs', '**/*.cjs'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: { ...tseslint.configs.disableTypeChecked.languageOptions, globals: nodeGlobals },
    // The .js and .cjs files are CommonJS run by node itself: require is how they import.
    rules: { ...tseslint.configs.disableTypeChecked.rules, '@typescript-eslint/no-require-imports': 'off' },
  },
  prettier,
);
