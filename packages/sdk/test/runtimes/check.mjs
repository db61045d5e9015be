// Run by runtimes.spec.ts under Node, Bun and Deno: the built ES module against a loopback server
// (node:http, which all three have) that answers a 429 with Retry-After: 0 and then the page, and
// verifyWebhook on a signature made with node:crypto. Prints one line of results.
import { createHmac } from 'node:crypto';
import { createServer } from 'node:http';
import { Mailroom, MailroomError, verifyWebhook } from '@mailroom/sdk';

let requests = 0;
const server = createServer((request, response) => {
  requests++;
  if (requests === 1) {
    response.writeHead(429, { 'Retry-After': '0', 'Content-Type': 'application/problem+json' });
    response.end(
      JSON.stringify({
        type: 'about:blank',
        title: 'Too Many Requests',
        status: 429,
        detail: 'Slow down.',
        requestId: 'r1',
      }),
    );
    return;
  }
  if (request.url.startsWith('/user/messages/missing')) {
    response.writeHead(404, { 'Content-Type': 'application/problem+json', 'X-Request-Id': 'r2' });
    response.end(
      JSON.stringify({
        type: 'about:blank',
        title: 'Not Found',
        status: 404,
        detail: 'No such message.',
        requestId: 'r2',
      }),
    );
    return;
  }
  response.writeHead(200, { 'Content-Type': 'application/json' });
  response.end(JSON.stringify({ messages: [{ id: 'm1' }], hasNext: false, page: 1, query: request.url }));
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const mailroom = new Mailroom({ baseUrl: `http://127.0.0.1:${server.address().port}`, apiKey: 'mr_x' });
const page = await mailroom.emails.list({ statuses: ['sent', 'failed'] });
const missing = await mailroom.emails.get('missing').catch((error) => error);

const secret = `whsec_${Buffer.from('0123456789abcdef0123456789abcdef').toString('base64')}`;
const body = JSON.stringify({ id: 'e1', type: 'endpoint.test', timestamp: new Date().toISOString(), data: {} });
const timestamp = String(Math.floor(Date.now() / 1000));
const mac = createHmac('sha256', Buffer.from(secret.slice(6), 'base64'))
  .update(`e1.${timestamp}.${body}`)
  .digest('base64');
const headers = { 'webhook-id': 'e1', 'webhook-timestamp': timestamp, 'webhook-signature': `v1,${mac}` };
const event = await verifyWebhook(body, headers, secret);
const refused = await verifyWebhook(`${body} `, headers, secret).catch((error) => error.name);
// Keep-alive connections would hold the server (and Deno) open.
server.closeAllConnections();
server.close();
console.log(
  JSON.stringify({
    requests,
    query: decodeURIComponent(page.query),
    missing: missing instanceof MailroomError ? `${missing.status} ${missing.requestId}` : String(missing),
    event: event.type,
    refused,
  }),
);
