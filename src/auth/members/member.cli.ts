// Prints a one-time invitation link, the way to an account's first owner (docs/teams.md#invitations):
// `npm run member -- --account <userId> --email <address> [--role owner]` from the sources,
// `node dist/src/auth/members/member.cli.js …` where only the build is (the image). It reaches the
// database of DATABASE_URL, or the embedded server of DATA_DIR: the running one of `npm start`, or
// one started for the moment; the schema is migrated first, as a start would.
import 'reflect-metadata';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { DataSource } from 'typeorm';
import { AppConfig } from '../../platform/config/app-config';
import { readOrCreateSecret } from '../../platform/config/secret-file';
import { dataSourceOptions, runMigrationsExclusively } from '../../platform/database/data-source-options';
import { Database } from '../../platform/database/database';
import { EmbeddedPostgres } from '../../platform/database/embedded-postgres';
import { isEmailAddress } from '../../platform/validation/email-address';
import { Invitations } from './invitations';
import { MEMBER_ROLES, type MemberRole } from './member-role';
import { MembersRepository } from './members.repository';

const USAGE =
  `Usage: npm run member -- --account <userId> --email <address> [--role ${MEMBER_ROLES.join('|')}; default owner]` +
  ' (in the image: node dist/src/auth/members/member.cli.js --account <userId> --email <address>)';

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { account: { type: 'string' }, email: { type: 'string' }, role: { type: 'string', default: 'owner' } },
  });
  const role = values.role as MemberRole;
  if (!values.account || !values.email || !MEMBER_ROLES.includes(role)) throw new Error(USAGE);
  if (!isEmailAddress(values.email)) throw new Error('--email must be an email address (name@example.com).');
  const config = AppConfig.load();
  let embedded: EmbeddedPostgres | undefined;
  let url = config.databaseUrl ?? runningEmbeddedServer(config.dataDir);
  if (!url) {
    embedded = new EmbeddedPostgres(config.dataDir);
    url = await embedded.start();
  }
  const dataSource = await new DataSource(dataSourceOptions(url, [])).initialize();
  try {
    await runMigrationsExclusively(dataSource, { dataEncryptionKey: () => config.deliverability.encryptionKey });
    const invitations = new Invitations(new MembersRepository(new Database(dataSource)), config);
    // Run on the server by its operator, who is no caller of the API: the audit log (whose actors are
    // members, API keys and JWTs) shows the member from its joining on, invited by `cli`.
    const { link } = await invitations.create(values.account, values.email, role, 'cli', () => Promise.resolve());
    process.stdout.write(`${link}\n`);
  } finally {
    await dataSource.destroy();
    await embedded?.stop();
  }
}

/** The URL of the embedded server `npm start` runs on DATA_DIR, read from its postmaster.pid (line 4: the port). */
function runningEmbeddedServer(dataDir: string): string | undefined {
  let port: string | undefined;
  try {
    port = readFileSync(join(dataDir, 'postgres', 'postmaster.pid'), 'utf8')
      .split('\n')[3]
      ?.trim();
  } catch {
    return undefined;
  }
  if (!port) return undefined;
  const password = readOrCreateSecret(dataDir, 'postgres-password');
  return `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/mailroom`;
}

main().catch((error: unknown) => {
  process.stderr.write(`${(error as Error).message}\n`);
  process.exitCode = 1;
});
