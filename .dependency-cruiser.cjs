// The allowed graph between src/'s contexts (STYLE.md's shape), checked by `npm run lint`.
// A context imports another only through its index.ts, and only along ALLOWED; platform/ is a kit
// that knows no context, imported by path; the files at the top of src/ assemble everything.

/** What each context may import besides itself and platform/, and why. */
const ALLOWED = {
  // Tokens, API keys, rate limits: what every route's guard needs, so it needs no other context.
  auth: [],
  // The message, its lifecycle, lists and read-back: its controllers name the caller (auth). What it
  // needs of webhooks (its events' fan-out, retention's questions) it declares as ports that
  // webhooks implements (EventFanOut, MessageEventStore).
  messages: ['auth'],
  // The event catalogue and outbox: payloads are built from the message as it stands, and messages'
  // ports are implemented here (messages).
  webhooks: ['auth', 'messages'],
  // Domains, suppressions, unsubscribe, reports: they change messages (a bounce, an unsubscribe)
  // and write account events (webhooks' outbox).
  deliverability: ['auth', 'messages', 'webhooks'],
  // Delivery claims messages and asks deliverability for keys, suppressions, VERP and headers.
  delivery: ['messages', 'deliverability'],
  // The listener routes a received mail to reports and unsubscribes (deliverability) or a
  // receiving domain; received mail is an account event (webhooks).
  inbound: ['auth', 'messages', 'deliverability', 'webhooks'],
  // The ways in: a send stores a message (messages), checks suppressions (deliverability) and a
  // webhook URL (webhooks), under the caller's limits (auth).
  sender: ['auth', 'messages', 'deliverability', 'webhooks'],
};
const CONTEXTS = Object.keys(ALLOWED);

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'An import cycle leaves a class undefined at decoration time for Nest: none in src/.',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'platform-knows-no-context',
      comment: 'platform/ is what any service needs; it imports no context and no assembly file.',
      severity: 'error',
      from: { path: '^src/platform/' },
      to: { path: [`^src/(${CONTEXTS.join('|')})/`, '^src/[^/]+\\.ts$'] },
    },
    {
      name: 'only-through-index',
      comment: 'Another context is reached through its public face, its index.ts, never a file inside.',
      severity: 'error',
      from: { path: '^src/([^/]+)/' },
      to: {
        path: `^src/(${CONTEXTS.join('|')})/`,
        pathNot: ['^src/$1/', `^src/(${CONTEXTS.join('|')})/index\\.ts$`],
      },
    },
    {
      name: 'assembly-only-through-index',
      comment: 'The files at the top of src/ reach a context through its index.ts too.',
      severity: 'error',
      from: { path: '^src/[^/]+\\.ts$' },
      to: { path: `^src/(${CONTEXTS.join('|')})/`, pathNot: `^src/(${CONTEXTS.join('|')})/index\\.ts$` },
    },
    ...CONTEXTS.map((context) => ({
      name: `${context}-imports-only-allowed-contexts`,
      comment: `${context} may import ${ALLOWED[context].join(', ') || 'no other context'} (ALLOWED says why).`,
      severity: 'error',
      from: { path: `^src/${context}/` },
      to: { path: `^src/(${CONTEXTS.filter((c) => c !== context && !ALLOWED[context].includes(c)).join('|')})/` },
    })),
    {
      name: 'contexts-do-not-import-the-assembly',
      comment: 'The files at the top of src/ (app.module, entities...) assemble the contexts, not the reverse.',
      severity: 'error',
      from: { path: '^src/[^/]+/' },
      to: { path: '^src/[^/]+\\.ts$' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)node_modules/' },
    includeOnly: '^src/',
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
  },
};
