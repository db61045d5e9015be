// node -r ts-node/register/transpile-only bench/profile-summary.ts <file.cpuprofile> [--top 40]
// Where a process's CPU went, from a V8 CPU profile (BENCH_CPU_PROF in bench/support.ts): self
// time by package or source file, and the heaviest functions, with the time under each of our
// own entry points (inclusive), so a layer of a request can be priced without reading DevTools.
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { top: { type: 'string', default: '40' } },
});
const profile = JSON.parse(readFileSync(positionals[0], 'utf8')) as Profile;
const top = Number(values.top);

const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const parent = new Map<number, number>();
for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);

// Samples of V8's idle state are time the process waited, not CPU it spent: left out.
const self = new Map<number, number>();
profile.samples.forEach((id, i) => {
  if (byId.get(id)!.callFrame.functionName === '(idle)') return;
  self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);
});
const total = [...self.values()].reduce((a, b) => a + b, 0);

/** A package under node_modules, a file of ours, or V8's own label ((garbage collector), (program)). */
function placeOf(url: string, name: string): string {
  if (!url) return name.startsWith('(') ? name : '(native)';
  const modules = url.lastIndexOf('node_modules/');
  if (modules >= 0) {
    const rest = url.slice(modules + 'node_modules/'.length).split('/');
    return rest[0].startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0];
  }
  if (url.startsWith('node:')) return url;
  const dist = url.indexOf('/dist/');
  return dist >= 0 ? url.slice(dist + 1) : url;
}

const add = (map: Map<string, number>, key: string, ms: number) => map.set(key, (map.get(key) ?? 0) + ms);
const places = new Map<string, number>();
const functions = new Map<string, number>();
for (const [id, ms] of self) {
  const { callFrame } = byId.get(id)!;
  add(places, placeOf(callFrame.url, callFrame.functionName), ms);
  add(
    functions,
    `${callFrame.functionName || '(anonymous)'} ${placeOf(callFrame.url, '')}:${callFrame.lineNumber + 1}`,
    ms,
  );
}

// Inclusive time of each of our own functions: a sample counts once for each distinct frame of
// ours on its stack.
const inclusive = new Map<string, number>();
for (const [id, ms] of self) {
  const seen = new Set<string>();
  for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
    const { callFrame } = byId.get(at)!;
    if (!callFrame.url.includes('/dist/src/')) continue;
    const key = `${callFrame.functionName || '(anonymous)'} ${placeOf(callFrame.url, '')}:${callFrame.lineNumber + 1}`;
    if (seen.has(key)) continue;
    seen.add(key);
    add(inclusive, key, ms);
  }
}

// The layers of a request and of a delivery, by where the frame's code lives. A sample goes to the
// innermost frame that belongs to a layer, so a layer's figure is what its own code and the
// libraries it alone calls cost, not what runs after it hands on (next(), a handler). Node's
// sockets and streams count for a layer above them (a query's write is the driver's) and only
// on their own (an incoming request's parse) when no layer is on the stack.
const LAYERS: [string, RegExp][] = [
  ['garbage collection', /^\(garbage collector\)$/],
  ['database driver (pg)', /node_modules\/(pg|pg-protocol|pg-pool|pg-types|postgres-[a-z]+)\//],
  ['TypeORM', /node_modules\/typeorm\//],
  ['job queue (pg-boss)', /node_modules\/pg-boss\/|\/platform\/queue\//],
  [
    'validation (class-validator, address parsing)',
    /node_modules\/(class-validator|validator|libphonenumber-js)\/|\/platform\/validation\/|\/dto\//,
  ],
  ['transformation (class-transformer)', /node_modules\/class-transformer\//],
  [
    'authentication (passport, JWT, API keys)',
    /node_modules\/(passport|passport-jwt|passport-strategy|jsonwebtoken|jws|jwa)\/|\/auth\/(bearer-auth\.guard|jwt\.strategy|api-keys|caller)/,
  ],
  ['rate limit', /\/auth\/rate-limit\/|node_modules\/@nestjs\/throttler\//],
  [
    'request log (pino, pino-http)',
    /node_modules\/(pino|pino-http|nestjs-pino|pino-std-serializers|sonic-boom|fast-redact|quick-format-unescaped|atomic-sleep)\/|\/request-log\.js/,
  ],
  [
    'body reading (json-body, body-parser)',
    /node_modules\/(body-parser|raw-body|iconv-lite|content-type|type-is|media-typer|bytes)\/|\/platform\/http\/(json-body|body-limit)/,
  ],
  ['metrics (prom-client)', /node_modules\/prom-client\/|\/platform\/metrics\//],
  [
    'mail (nodemailer, MIME, html-to-text)',
    /node_modules\/(nodemailer|html-to-text|htmlparser2|@selderee|selderee|domhandler|domutils|entities|parseley|leac|peberminta|deepmerge|dom-serializer)\/|\/messages\/mime\/|\/delivery\/mailer\//,
  ],
  ['Mailroom, the rest', /\/dist\/src\//],
  [
    'Nest, Express, rxjs',
    /node_modules\/(@nestjs\/core|@nestjs\/common|@nestjs\/platform-express|express|router|path-to-regexp|rxjs|finalhandler|send|serve-static|on-finished|depd|fresh|etag|vary|accepts|negotiator|mime-types|qs)\//,
  ],
];
const NODE_IO: [string, RegExp] = [
  'Node HTTP and sockets',
  /^node:(_http|net|internal\/stream_base_commons|internal\/streams|stream|events|internal\/http)/,
];
const layers = new Map<string, number>();
for (const [id, ms] of self) {
  let layer: string | undefined;
  let io = false;
  for (let at: number | undefined = id; at !== undefined && layer === undefined; at = parent.get(at)) {
    const { callFrame } = byId.get(at)!;
    const where = callFrame.url || callFrame.functionName;
    layer = LAYERS.find(([, pattern]) => pattern.test(where))?.[0];
    io ||= NODE_IO[1].test(where);
  }
  add(layers, layer ?? (io ? NODE_IO[0] : 'other (Node, V8)'), ms);
}

const table = (title: string, map: Map<string, number>) => {
  console.log(`\n${title}`);
  for (const [key, ms] of [...map].sort((a, b) => b[1] - a[1]).slice(0, top))
    console.log(`${ms.toFixed(0).padStart(8)} ms ${((ms / total) * 100).toFixed(1).padStart(5)} %  ${key}`);
};
console.log(`${positionals[0]}: ${total.toFixed(0)} ms sampled`);
table('by layer (a sample goes to the innermost frame of a layer on its stack)', layers);
table('self time by package or file', places);
table('self time by function', functions);
table('inclusive time of our own functions', inclusive);
