import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

const SRC = join(__dirname, '..', '..');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts') ? [path] : [];
  });
}

// pg-boss's schema changes with its major versions: one folder knows it (JobQueue).
describe("pg-boss's tables", () => {
  it('are named only in platform/queue', () => {
    const outside = sourceFiles(SRC)
      .filter((file) => !file.startsWith(__dirname + '/') && /\bpgboss\./.test(readFileSync(file, 'utf8')))
      .map((file) => relative(SRC, file));
    expect(outside).toEqual([]);
  });
});
