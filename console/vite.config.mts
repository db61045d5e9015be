import { defineConfig } from 'vite';

// Served by the API processes at /console (src/console-files.ts), under a CSP that allows only
// this origin's files: no inline script or style, nothing from another origin.
export default defineConfig({
  root: import.meta.dirname,
  base: '/console/',
  // Vite 8 compiles TSX with oxc; the automatic runtime needs no React import in each file.
  oxc: { jsx: { runtime: 'automatic' } },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // Every asset as a file of this origin, never a data: URI the CSP would have to allow.
    assetsInlineLimit: 0,
    // index.html names one script: the entry. Rolldown puts the CommonJS React modules that the
    // entry and the lazy pages share in a chunk of their own, which the entry imports; a preload
    // link for it in the HTML would save one round trip for 9 KB once, and the lazy pages' own
    // preloads are kept.
    modulePreload: {
      resolveDependencies: (_file, dependencies, { hostType }) => (hostType === 'html' ? [] : dependencies),
    },
    // No source maps in the distribution: the sources are in the repository.
    sourcemap: false,
    rolldownOptions: {
      // TanStack Query marks its modules "use client" for React Server Components, which a
      // single-page app has none of.
      onwarn(warning, warn) {
        if (warning.code !== 'MODULE_LEVEL_DIRECTIVE') warn(warning);
      },
    },
  },
});
