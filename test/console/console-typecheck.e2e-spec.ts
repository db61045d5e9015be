import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../support/child-processes';
import { ensureConsoleBuilt } from '../support/console';

const TSC = join(PROJECT_ROOT, 'node_modules/typescript/bin/tsc');
const CONSOLE = join(PROJECT_ROOT, 'console');

/** The console's type-check, as its build runs it, on one more file that reads `field` of a Message. */
function typeCheckReading(dir: string, field: string): Promise<{ code: number; output: string }> {
  writeFileSync(
    join(dir, 'probe.ts'),
    `import type { Message } from '${CONSOLE}/src/api/messages';\nexport const read = (m: Message) => m.${field};\n`,
  );
  writeFileSync(
    join(dir, 'tsconfig.json'),
    JSON.stringify({
      extends: `${CONSOLE}/tsconfig.json`,
      include: [`${CONSOLE}/src`, `${CONSOLE}/generated/openapi.ts`, 'probe.ts'],
    }),
  );
  return new Promise((resolve) =>
    execFile(process.execPath, [TSC, '--noEmit', '-p', join(dir, 'tsconfig.json')], (error, stdout) =>
      resolve({ code: error ? Number(error.code) : 0, output: stdout }),
    ),
  );
}

/** SPEC §14 via issue 27: the build fails when the console uses a field the API document does not have. */
describe("the console's build type-checks it against the API's OpenAPI document", () => {
  let dir: string;

  beforeAll(async () => {
    await ensureConsoleBuilt();
    // Inside the project, where the console's type packages resolve; generated/ is not a build input.
    dir = mkdtempSync(join(CONSOLE, 'generated', 'probe-'));
  }, 300_000);

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('passes a field the document has, and fails one it lacks, naming it', async () => {
    const present = await typeCheckReading(dir, 'recipients');
    const missing = await typeCheckReading(dir, 'nextRetryAt');

    expect(present).toEqual({ code: 0, output: '' });
    expect(missing.code).not.toBe(0);
    expect(missing.output).toMatch(/Property 'nextRetryAt' does not exist/);
  }, 120_000);
});
