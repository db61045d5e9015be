// `npm run member` (docs/teams.md#invitations): the first owner's one-time invitation link, printed by a
// separate process on the service's database, accepted by the running service.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { PROJECT_ROOT, TS_NODE } from '../../support/child-processes';
import { PASSWORD } from '../../support/members';
import { bootTestApp, TestApp } from '../../support/test-app';
import { newUserId } from '../../support/tokens';

const CLI_MS = 120_000;

describe('npm run member', () => {
  let t: TestApp;
  let dataDir: string;

  beforeAll(async () => {
    t = await bootTestApp({ PUBLIC_URL: 'https://mail.example.com' });
    dataDir = mkdtempSync(join(tmpdir(), 'mailroom-cli-'));
  });

  afterAll(async () => {
    await t.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const cli = (...args: string[]) =>
    promisify(execFile)(process.execPath, [...TS_NODE, 'src/auth/members/member.cli.ts', ...args], {
      cwd: PROJECT_ROOT,
      env: {
        PATH: process.env.PATH,
        NODE_ENV: 'test',
        DATA_DIR: dataDir,
        DATABASE_URL: process.env.TEST_DATABASE_URL,
        PUBLIC_URL: 'https://mail.example.com',
      },
      timeout: CLI_MS,
    });

  it(
    'prints a link that makes the first owner, once',
    async () => {
      const account = newUserId();

      const { stdout } = await cli('--account', account, '--email', 'first@example.com');

      const token = /^https:\/\/mail\.example\.com\/console\/invitation\/([A-Za-z0-9_-]{43})\n$/.exec(stdout)?.[1];
      expect(token).toBeDefined();
      const accepted = await t.http.post(`/invitations/${token}/accept`).send({ password: PASSWORD }).expect(200);
      expect(accepted.body).toMatchObject({
        account: { userId: account },
        role: 'owner',
        member: { invitedBy: 'cli' },
      });
      await t.http.post(`/invitations/${token}/accept`).send({ password: PASSWORD }).expect(404);
    },
    CLI_MS,
  );

  it(
    'refuses a missing address and an unknown role, saying how it is used',
    async () => {
      await expect(cli('--account', 'ada')).rejects.toMatchObject({
        code: 1,
        stderr: expect.stringMatching(/^Usage:/),
      });
      await expect(cli('--account', 'ada', '--email', 'a@example.com', '--role', 'boss')).rejects.toMatchObject({
        code: 1,
      });
    },
    CLI_MS,
  );
});
