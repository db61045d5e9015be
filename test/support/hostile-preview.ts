// Mail HTML that tries every way to run script, leave the console's preview or phone home, and the
// watch a browser test keeps on a page that shows it (docs/architecture.md#the-console), for sent and received mail alike.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { waitFor } from './wait-for';

/** The mail's HTML; `origin` is the test's own server, which counts every request the preview makes. */
export function hostileHtml(origin: string): string {
  return [
    `<html><head><title>Hijacked</title><meta http-equiv="refresh" content="0;url=${origin}/refresh"></head><body>`,
    `<script>console.log('HOSTILE-SCRIPT-RAN'); alert('script'); top.document.title = 'pwned'; top.location = '${origin}/script';</script>`,
    `<img alt="remote" src="${origin}/remote.png">`,
    `<img alt="broken" src="cid:logo" onerror="console.log('HOSTILE-ONERROR-RAN'); alert('onerror'); top.location = '${origin}/onerror'">`,
    // Inline CSS is allowed (mail needs it), so its every way to reach another origin is tried too.
    `<style>@import url(${origin}/import.css); @font-face { font-family: probe; src: url(${origin}/font.woff) }`,
    `.tracked { background: url(${origin}/bg-rule.png) }</style>`,
    `<link rel="stylesheet" href="${origin}/link.css">`,
    `<div class="tracked">rule</div><div style="background-image: url(${origin}/bg-attr.png)">attribute</div>`,
    '<p style="font-family: probe">Visible body of the hostile mail</p></body></html>',
  ].join('\n');
}

/** For the calling describe: an HTTP server on loopback that records each request's path. */
export function trackingServer(): { origin: () => string; requests: string[] } {
  const requests: string[] = [];
  let server: Server;
  let origin = '';
  beforeAll(async () => {
    server = createServer((request, response) => {
      requests.push(request.url ?? '');
      response.end('tracked');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { origin: () => origin, requests };
}

/** Records the page's console lines and dialogs (dismissed), before the page shows the mail. */
export function watchPage(page: Page): { consoleLines: string[]; dialogs: string[] } {
  const consoleLines: string[] = [];
  const dialogs: string[] = [];
  page.on('console', (message) => consoleLines.push(message.text()));
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  return { consoleLines, dialogs };
}

/**
 * Waits for the real signals that the preview of hostileHtml(origin) tried each trick and was
 * refused: Chromium's reports of the sandbox and the CSP refusing them.
 */
export async function waitForRefusals(consoleLines: string[], origin: string): Promise<void> {
  const reported = (text: string) => consoleLines.some((line) => line.includes(text));
  await waitFor(() => reported(`Loading the image '${origin}/remote.png' violates`), 'the remote image refused');
  await waitFor(
    () => reported("Refused to execute the redirect specified via '<meta http-equiv='refresh'"),
    'the refresh refused',
  );
  await waitFor(() => reported("Blocked script execution in 'about:srcdoc'"), 'the script refused');
  for (const [kind, path] of [
    ['stylesheet', 'import.css'],
    ['stylesheet', 'link.css'],
    ['font', 'font.woff'],
    ['image', 'bg-rule.png'],
    ['image', 'bg-attr.png'],
  ])
    await waitFor(() => reported(`Loading the ${kind} '${origin}/${path}' violates`), `the ${kind} ${path} refused`);
}
