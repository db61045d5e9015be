import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { NestExpressApplication } from '@nestjs/platform-express';
import express, { type NextFunction, type Request, type Response } from 'express';
import { sendProblem } from './platform/problem/send-problem';

/**
 * docs/architecture.md#the-console: the console's pages load only this origin's files; no inline or evaluated script, and
 * no page of another origin may frame them.
 *
 * Inline styles are allowed for one reader: the mail preview's `<iframe sandbox srcdoc>` inherits
 * this policy, and mail is styled with `<style>` and `style=""` almost always, so under
 * `style-src 'self'` every mail showed unstyled. No per-document escape exists (a srcdoc or blob:
 * document inherits the policy, a meta CSP can only tighten it, a style attribute takes no nonce).
 * What inline CSS could still do is bounded by the rest: it cannot run script, and img-src,
 * font-src (default-src) and connect-src 'self' keep its url()s and @imports from reaching any
 * other origin, so a mail's styles neither phone home nor load a remote image.
 */
export const CONSOLE_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

const CONSOLE_HEADERS: Record<string, string> = {
  'Content-Security-Policy': CONSOLE_CSP,
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  // For browsers that predate frame-ancestors.
  'X-Frame-Options': 'DENY',
};

/** console/dist of the project or image: the nearest folder above this file holding package.json. */
export function consoleDistDirectory(from = __dirname): string {
  let dir = from;
  while (!existsSync(join(dir, 'package.json')) && dirname(dir) !== dir) dir = dirname(dir);
  return join(dir, 'console', 'dist');
}

/**
 * Serves the built console at /console (its assets by name, any other path its index.html, the
 * single-page app's routes) and redirects / there. Plain express.static: the files are a folder
 * of static assets, and @nestjs/serve-static's newest line is for Nest 12.
 */
export function serveConsole(app: NestExpressApplication, root = consoleDistDirectory()): void {
  const withHeaders = (response: Response) => {
    for (const [name, value] of Object.entries(CONSOLE_HEADERS)) response.setHeader(name, value);
  };
  app.use((request: Request, response: Response, next: NextFunction) => {
    if (request.path !== '/' || (request.method !== 'GET' && request.method !== 'HEAD')) return next();
    response.redirect(302, '/console/');
  });
  // Hashed file names never change content, so they may be kept for a year.
  app.use(
    '/console/assets',
    express.static(join(root, 'assets'), {
      immutable: true,
      maxAge: '365d',
      index: false,
      setHeaders: withHeaders,
    }),
    (request: Request, response: Response) => sendProblem(request, response, 404, 'No such console file.'),
  );
  app.use('/console', (request: Request, response: Response, next: NextFunction) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') return next();
    const index = join(root, 'index.html');
    if (!existsSync(index))
      return sendProblem(
        request,
        response,
        503,
        'The console is not built: run `npm run build` (npm start builds it).',
      );
    withHeaders(response);
    // The page names the current assets, so it is checked again on every load.
    response.setHeader('Cache-Control', 'no-cache');
    response.sendFile(index);
  });
}
