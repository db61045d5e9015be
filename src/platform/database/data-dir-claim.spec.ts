import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigurationError } from '../config/app-config';
import { claimDataDir } from './data-dir-claim';

describe(claimDataDir.name, () => {
  let dataDir: string;
  beforeEach(() => (dataDir = mkdtempSync(join(tmpdir(), 'mailroom-claim-'))));
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

  const claimFile = () => JSON.parse(readFileSync(join(dataDir, 'mailroom.pid'), 'utf8')) as unknown;

  it('claims a free DATA_DIR for this process, with its port', () => {
    claimDataDir(dataDir, 3000);

    expect(claimFile()).toEqual({ pid: process.pid, port: 3000 });
  });

  it('refuses a DATA_DIR a running process holds, naming it in one line, and leaves its claim', () => {
    const holder = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)']);
    try {
      writeFileSync(join(dataDir, 'mailroom.pid'), JSON.stringify({ pid: holder.pid, port: 4242 }));

      expect(() => claimDataDir(dataDir, 3000)).toThrow(
        new ConfigurationError(
          `Mailroom already runs on DATA_DIR ${dataDir} (pid ${holder.pid}, port 4242); stop it, or set DATA_DIR to another folder.`,
        ),
      );
      expect(claimFile()).toEqual({ pid: holder.pid, port: 4242 });
    } finally {
      holder.kill('SIGKILL');
    }
  });

  it.each([
    ['a process that is gone', () => JSON.stringify({ pid: spawnSync(process.execPath, ['-e', '']).pid, port: 4242 })],
    ['a half-written claim', () => '{"pid": 12'],
  ])('takes over the claim of %s', (_case, stale) => {
    writeFileSync(join(dataDir, 'mailroom.pid'), stale());

    claimDataDir(dataDir, 3000);

    expect(claimFile()).toEqual({ pid: process.pid, port: 3000 });
  });
});
