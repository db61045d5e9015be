// `npm ci && npm test` on a machine without swaks or Chromium: the tests that need one skip, each
// file saying why; SWAKS_PATH and CHROMIUM_PATH hide them for a run (the other engineers on this
// machine need /usr/bin/swaks and /usr/bin/chromium where they are).
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { PROJECT_ROOT } from './support/child-processes';

/** The support module loaded afresh with `env` set, and what it printed while deciding. */
function loadWith<T>(module: string, env: Record<string, string>, use: (loaded: T) => unknown): { result: unknown; warnings: string[] } {
  const saved = Object.fromEntries(Object.keys(env).map((name) => [name, process.env[name]]));
  const warnings: string[] = [];
  const warn = jest.spyOn(console, 'warn').mockImplementation((line: string) => void warnings.push(line));
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
    const hidden = loadWith<typeof import('./support/swaks')>('./support/swaks', { SWAKS_PATH: '/nonexistent/swaks' }, (m) => [m.SWAKS, m.itIfSwaks('A test') === it.skip]);

    expect(hidden).toEqual({ result: ['/nonexistent/swaks', true], warnings: ['A test SKIPPED: no swaks at /nonexistent/swaks (apt-get install swaks)'] });
  });

  it('skips the browser tests, saying why, when CHROMIUM_PATH names no file', () => {
    const hidden = loadWith<typeof import('./support/browser')>('./support/browser', { CHROMIUM_PATH: '/nonexistent/chromium' }, (m) => m.describeInBrowser('A test') === describe.skip);

    expect(hidden).toEqual({ result: true, warnings: ['A test SKIPPED: no Chromium at /nonexistent/chromium (apt-get install chromium)'] });
  });
});

describe('the tests that run an external program', () => {
  const testFiles = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
      entry.isDirectory() ? testFiles(join(dir, entry.name)) : entry.name.endsWith('.ts') ? [join(dir, entry.name)] : [],
    );
  const sources = testFiles(join(PROJECT_ROOT, 'test')).map((file) => ({ file: relative(PROJECT_ROOT, file), text: readFileSync(file, 'utf8') }));

  it.each([
    ['swaks', /\bsendWithSwaks\(|\bSWAKS\b/, /\bitIfSwaks\(/],
    ['Chromium', /\bappInBrowser\(|\blaunchChromium\(/, /\bdescribeInBrowser\(/],
  ])('start %s only under its skip helper', (_program, uses, skipHelper) => {
    const users = sources.filter(({ file, text }) => file.endsWith('.e2e-spec.ts') && uses.test(text));

    // The control: the scan finds the files it is about.
    expect(users.length).toBeGreaterThan(0);
    expect(users.filter(({ text }) => !skipHelper.test(text)).map(({ file }) => file)).toEqual([]);
  });
});
