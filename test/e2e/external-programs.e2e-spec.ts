// `npm ci && npm test` on a machine without swaks, Chromium or Python: the tests that need one
// skip, each file saying why; SWAKS_PATH, CHROMIUM_PATH and PYTHON_PATH hide them for a run (the
// other engineers on this machine need /usr/bin/swaks and /usr/bin/chromium where they are).
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import * as ts from 'typescript';
import { PROJECT_ROOT } from '../support/child-processes';

/** The support module loaded afresh with `env` set, and what it printed while deciding. */
function loadWith<T>(
  module: string,
  env: Record<string, string>,
  use: (loaded: T) => unknown,
): { result: unknown; warnings: string[] } {
  const saved = Object.fromEntries(Object.keys(env).map((name) => [name, process.env[name]]));
  const warnings: string[] = [];
  const warn = jest
    .spyOn(process.stderr, 'write')
    .mockImplementation((line: string | Uint8Array) => warnings.push(String(line).trimEnd()) > 0);
  Object.assign(process.env, env);
  let result: unknown;
  try {
    jest.isolateModules(() => (result = use(jest.requireActual(module) as T)));
  } finally {
    warn.mockRestore();
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  }
  return { result, warnings };
}

describe('hiding the external programs for a run', () => {
  it('skips the swaks tests, saying why, when SWAKS_PATH names no file', () => {
    const hidden = loadWith<typeof import('../support/swaks')>(
      '../support/swaks',
      { SWAKS_PATH: '/nonexistent/swaks' },
      (m) => [m.SWAKS, m.itIfSwaks('A test') === it.skip],
    );

    expect(hidden).toEqual({
      result: ['/nonexistent/swaks', true],
      warnings: ['A test SKIPPED: no swaks at /nonexistent/swaks (apt-get install swaks)'],
    });
  });

  it('skips the browser tests, saying why, when CHROMIUM_PATH names no file', () => {
    const hidden = loadWith<typeof import('../support/browser')>(
      '../support/browser',
      { CHROMIUM_PATH: '/nonexistent/chromium' },
      (m) => m.describeInBrowser('A test') === describe.skip,
    );

    expect(hidden).toEqual({
      result: true,
      warnings: ['A test SKIPPED: no Chromium at /nonexistent/chromium (apt-get install chromium)'],
    });
  });

  it('skips the Python tests, saying why, when PYTHON_PATH names no program', () => {
    const hidden = loadWith<typeof import('../support/python')>(
      '../support/python',
      { PYTHON_PATH: '/nonexistent/python3' },
      (m) => m.itIfPython('A test') === it.skip,
    );

    expect(hidden).toEqual({
      result: true,
      warnings: ['A test SKIPPED: no Python at /nonexistent/python3 (apt-get install python3)'],
    });
  });
});

describe('the tests that run an external program', () => {
  const testFiles = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
      entry.isDirectory()
        ? testFiles(join(dir, entry.name))
        : entry.name.endsWith('.ts')
          ? [join(dir, entry.name)]
          : [],
    );
  const sources = testFiles(join(PROJECT_ROOT, 'test')).map((file) => ({
    file: relative(PROJECT_ROOT, file),
    text: readFileSync(file, 'utf8'),
  }));

  /** The titles of the plain `it`/`test` calls (each form, `.each` too) whose own code matches `uses`, read by the TypeScript parser. */
  const plainTestsUsing = (file: string, text: string, uses: RegExp): string[] => {
    const found: string[] = [];
    const visit = (node: ts.Node): void => {
      if (ts.isCallExpression(node)) {
        const callee = ts.isCallExpression(node.expression) ? node.expression.expression : node.expression;
        const name = ts.isPropertyAccessExpression(callee) ? callee.expression.getText() : callee.getText();
        if (
          (name === 'it' || name === 'test') &&
          node.arguments.some((arg) => ts.isFunctionLike(arg) && uses.test(arg.getText()))
        ) {
          found.push(`${file}: ${node.arguments[0].getText()}`);
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true));
    return found;
  };

  it.each([
    ['swaks', /\bsendWithSwaks\(|\bSWAKS\b/, /\bitIfSwaks\(/],
    ['Chromium', /\bappInBrowser\(|\blaunchChromium\(/, /\bdescribeInBrowser\(/],
    ['Python', /\bsendWithSmtplib\(|\bconverse\(|\bPYTHON\b/, /\bitIfPython\(|\bpythonPresent\(/],
  ])('start %s only under its skip helper', (_program, uses, skipHelper) => {
    const users = sources.filter(({ file, text }) => file.endsWith('.e2e-spec.ts') && uses.test(text));

    // The control: the scan finds the files it is about.
    expect(users.length).toBeGreaterThan(0);
    expect(users.filter(({ text }) => !skipHelper.test(text)).map(({ file }) => file)).toEqual([]);
  });

  // The SMTP submission suites (test/submission before the tests followed the contexts).
  const submissionSuites = /^test\/(medium\/sender|e2e)\/(smtp-submission|submission-|submitted-)/;

  it.each([
    ['swaks', /\bsendWithSwaks\(/],
    ['Python', /\bsendWithSmtplib\(|\bconverse\(/],
  ])('run no %s test under a plain it() (outside the submission suites, which are mended apart)', (_program, uses) => {
    const ours = sources.filter(
      ({ file }) =>
        file.endsWith('.e2e-spec.ts') && !submissionSuites.test(file) && file !== relative(PROJECT_ROOT, __filename),
    );

    expect(ours.flatMap(({ file, text }) => plainTestsUsing(file, text, uses))).toEqual([]);
    // The control: the same reader finds such a test where one is.
    expect(
      plainTestsUsing('x.ts', "it('a', async () => { await converse(1, []); });", uses).length +
        plainTestsUsing('y.ts', "it('b', () => sendWithSwaks(1, 'a', b));", uses).length,
    ).toBe(1);
  });
});
