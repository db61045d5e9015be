// The SDK is generated from the OpenAPI document the server serves (scripts/sdk.js): this fails
// when a change to the API was not followed by `npm run build && npm run sdk:generate`.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..', '..');
const SDK = join(ROOT, 'packages', 'sdk');
const REGENERATE = 'The SDK is stale: run `npm run build && npm run sdk:generate` and commit packages/sdk.';

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
});
