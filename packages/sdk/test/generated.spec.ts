// The SDK is generated from the OpenAPI document the server serves (scripts/sdk.js): this fails
// when a change to the API was not followed by `npm run build && npm run sdk:generate`, or a change
// to the SDK by `npm run sdk:docs` (its reference).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..', '..');
const SDK = join(ROOT, 'packages', 'sdk');
const REGENERATE = 'The SDK is stale: run `npm run build && npm run sdk:generate` and commit packages/sdk.';
const REDOCUMENT = 'The SDK reference is stale: run `npm run sdk:docs` and commit packages/sdk/docs.';

/** Every file under `dir`, by its path there, with its text. */
function filesOf(dir: string, under = ''): Record<string, string> {
  return Object.fromEntries(
    readdirSync(join(dir, under), { withFileTypes: true }).flatMap((entry) => {
      const path = join(under, entry.name);
      return entry.isDirectory() ? Object.entries(filesOf(dir, path)) : [[path, readFileSync(join(dir, path), 'utf8')]];
    }),
  );
}

describe('the generated SDK', () => {
  it('was generated from the document the server now serves', () => {
    // The server's sources, not dist/, which may be older than them.
    const served = execFileSync(
      process.execPath,
      ['-r', 'ts-node/register/transpile-only', 'src/openapi.cli.ts', '--pinned-examples'],
      {
        cwd: ROOT,
        encoding: 'utf8',
      },
    );
    const committed = readFileSync(join(SDK, 'openapi.json'), 'utf8');
    expect({ document: JSON.parse(committed) as unknown, hint: REGENERATE }).toEqual({
      document: JSON.parse(served) as unknown,
      hint: REGENERATE,
    });
  }, 180_000);

  it('has the types that document makes', () => {
    const dir = mkdtempSync(join(tmpdir(), 'mailroom-sdk-types-'));
    try {
      execFileSync(process.execPath, ['scripts/sdk.js', 'types', join(dir, 'openapi.ts')], {
        cwd: ROOT,
        stdio: 'pipe',
      });
      const made = readFileSync(join(dir, 'openapi.ts'), 'utf8');
      const committed = readFileSync(join(SDK, 'src', 'generated', 'openapi.ts'), 'utf8');
      expect(committed === made ? 'fresh' : REGENERATE).toBe('fresh');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 180_000);

  it('has the reference its exports make', () => {
    const dir = mkdtempSync(join(tmpdir(), 'mailroom-sdk-docs-'));
    try {
      execFileSync(process.execPath, ['scripts/sdk.js', 'docs', dir], { cwd: ROOT, stdio: 'pipe' });
      const made = filesOf(dir);
      const committed = filesOf(join(SDK, 'docs'));
      expect(Object.keys(made)).toContain('README.md');
      expect({ files: committed, hint: REDOCUMENT }).toEqual({ files: made, hint: REDOCUMENT });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 180_000);
});
