import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { preProcessFile } from 'typescript';

/**
 * What is left of the import ladder while src/ moves into its contexts (the contexts' allowed graph
 * replaces it): no file imports itself back through others, and pg-boss's tables stay in the queue.
 */
const SRC = __dirname;
const QUEUE = join(SRC, 'platform', 'queue');

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
  it('has no import cycle', () => {
    const cycles = importCycles(sourceFiles(SRC)).map((cycle) => cycle.map((file) => relative(SRC, file)).join(' ↔ '));
    expect(cycles).toEqual([]);
  });

  // pg-boss's schema changes with its major versions: one room knows it (JobQueue).
  it("names pg-boss's tables only in the queue room", () => {
    const outside = sourceFiles(SRC)
      .filter((file) => !file.startsWith(QUEUE + '/') && /\bpgboss\./.test(readFileSync(file, 'utf8')))
      .map((file) => relative(SRC, file));
    expect(outside).toEqual([]);
  });
});
