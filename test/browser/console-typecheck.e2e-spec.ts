import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../support/child-processes';
import { ensureConsoleBuilt } from '../support/console';

const TSC = join(PROJECT_ROOT, 'node_modules/typescript/bin/tsc');
const CONSOLE = join(PROJECT_ROOT, 'console');

/**
 * The console's type-check, as its build runs it, on one more file per field, each reading that
 * field of a Message: one tsc run for all of them (a run is some 8 CPU-s of the suite's own).
 */
function typeCheckReading(dir: string, fields: string[]): Promise<{ code: number; output: string }> {
  for (const field of fields)
    writeFileSync(
      join(dir, `probe-${field}.ts`),
      `import type { Message } from '${CONSOLE}/src/api/messages';\nexport const read = (m: Message) => m.${field};\n`,
    );
  writeFileSync(
    join(dir, 'tsconfig.json'),
    JSON.stringify({
      extends: `${CONSOLE}/tsconfig.json`,
      include: [`${CONSOLE}/src`, `${CONSOLE}/generated/openapi.ts`, ...fields.map((field) => `probe-${field}.ts`)],
    }),
  );
  return new Promise((resolve) =>
    execFile(process.execPath, [TSC, '--noEmit', '-p', join(dir, 'tsconfig.json')], (error, stdout) =>
      resolve({ code: error ? Number(error.code) : 0, output: stdout }),
    ),
  );
}

/** docs/architecture.md#the-console via issue 27: the build fails when the console uses a field the API document does not have. */
describe("the console's build type-checks it against the API's OpenAPI document", () => {
  let dir: string;

  beforeAll(async () => {
    await ensureConsoleBuilt();
    // Inside the project, where the console's type packages resolve; generated/ is not a build input.
    dir = mkdtempSync(join(CONSOLE, 'generated', 'probe-'));
  }, 300_000);

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('passes a field the document has, and fails one it lacks, naming it', async () => {
    const { code, output } = await typeCheckReading(dir, ['recipients', 'nextRetryAt']);

    expect(code).not.toBe(0);
    // Every error is the missing field's, once: the present field's file and the console are clean.
    const errors = output.split('\n').filter((line) => /error TS\d+:/.test(line));
    expect(errors).toEqual([
      expect.stringMatching(/\/probe-nextRetryAt\.ts\(2,\d+\): error TS2339: Property 'nextRetryAt' does not exist/),
    ]);
  }, 120_000);
});
