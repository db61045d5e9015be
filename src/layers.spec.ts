import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { preProcessFile } from 'typescript';

/**
 * The rooms of src/, low to high: a module may import from its own room and from rooms below it,
 * never from one above (the README's layout), and no file imports itself back through others.
 */
const LAYERS: string[][] = [
  ['common', 'config'],
  ['database'],
  ['auth', 'queue'],
  // The event catalogue and outbox writer: below every room whose changes cause events (SPEC §11).
  ['events'],
  // mime: how a message becomes MIME, one composer for delivery and for reading a message back (SPEC §12).
  ['metrics', 'rate-limit', 'attachments', 'idempotency', 'mime'],
  ['messages'],
  ['webhooks', 'suppressions', 'domains'],
  ['unsubscribe'],
  // Received mail; the inbound listener (bounces) hands mail for receiving domains in here.
  ['inbound'],
  ['bounces'],
  ['delivery', 'intake'],
  ['sender', 'health'],
  // Above sender: a submitted message passes the REST send body's own validation (SendMessageDto).
  ['submission'],
];
const SRC = __dirname;
// Files at the top of src/ (the app's assembly) sit above every room.
const APP = '(app)';
const rankOf = (room: string): number =>
  room === APP ? LAYERS.length : LAYERS.findIndex((layer) => layer.includes(room));
const roomOf = (path: string): string => {
  const parts = relative(SRC, path).split('/');
  return parts.length === 1 ? APP : parts[0];
};

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts') ? [path] : [];
  });
}

/** Every import of a file inside src/, read by the TypeScript compiler's own pre-processor. */
function importsOf(file: string): string[] {
  return preProcessFile(readFileSync(file, 'utf8'), true, true)
    .importedFiles.map((imported) => imported.fileName)
    .filter((name) => name.startsWith('.'))
    .map((name) => resolve(dirname(file), name));
}

/** The file an import names: `./x` is `./x.ts` or `./x/index.ts`. */
function fileOf(target: string, files: Set<string>): string | undefined {
  return [`${target}.ts`, join(target, 'index.ts')].find((candidate) => files.has(candidate));
}

/**
 * The import cycles among `files`: the strongly connected components of the import graph
 * (Tarjan's algorithm) of two or more files, and any file that imports itself. Each is given as
 * its files, sorted.
 */
function importCycles(files: string[]): string[][] {
  const known = new Set(files);
  const edges = new Map(files.map((file) => [file, importsOf(file).flatMap((target) => fileOf(target, known) ?? [])]));
  const index = new Map<string, number>();
  const lowest = new Map<string, number>();
  const stack: string[] = [];
  const cycles: string[][] = [];
  const visit = (file: string): void => {
    index.set(file, index.size);
    lowest.set(file, index.get(file)!);
    stack.push(file);
    for (const next of edges.get(file)!) {
      if (!index.has(next)) {
        visit(next);
        lowest.set(file, Math.min(lowest.get(file)!, lowest.get(next)!));
      } else if (stack.includes(next)) lowest.set(file, Math.min(lowest.get(file)!, index.get(next)!));
    }
    if (lowest.get(file) !== index.get(file)) return;
    const component = stack.splice(stack.indexOf(file));
    if (component.length > 1 || edges.get(file)!.includes(file)) cycles.push(component.sort());
  };
  for (const file of files) if (!index.has(file)) visit(file);
  return cycles;
}

describe('layers', () => {
  it('places every room of src/ in a layer', () => {
    const rooms = readdirSync(SRC, { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => e.name);
    expect(rooms.filter((room) => rankOf(room) < 0)).toEqual([]);
  });

  it('has no import from a lower room up to a higher one', () => {
    const upward = sourceFiles(SRC).flatMap((file) =>
      importsOf(file)
        .filter((target) => target.startsWith(SRC + '/'))
        .filter((target) => roomOf(target) !== roomOf(file) && rankOf(roomOf(target)) >= rankOf(roomOf(file)))
        .map((target) => `${relative(SRC, file)} → ${relative(SRC, target)}`),
    );
    expect(upward).toEqual([]);
  });

  it('has no import cycle', () => {
    const cycles = importCycles(sourceFiles(SRC)).map((cycle) => cycle.map((file) => relative(SRC, file)).join(' ↔ '));
    expect(cycles).toEqual([]);
  });

  // pg-boss's schema changes with its major versions: one room knows it (JobQueue).
  it("names pg-boss's tables only in the queue room", () => {
    const outside = sourceFiles(SRC)
      .filter((file) => roomOf(file) !== 'queue' && /\bpgboss\./.test(readFileSync(file, 'utf8')))
      .map((file) => relative(SRC, file));
    expect(outside).toEqual([]);
  });
});
