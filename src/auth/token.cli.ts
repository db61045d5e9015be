// Prints a token signed with the configured key: `npm run token -- --sub <userId> [--ttl 1h]` from
// the sources, `node dist/src/auth/token.cli.js --sub <userId>` where only the build is (the image).
import 'reflect-metadata';
import { parseArgs } from 'node:util';
import { AppConfig } from '../platform/config/app-config';
import { parseTtl, signToken } from './token-signer';

const DEFAULT_TTL = '1h';
const USAGE =
  `Usage: npm run token -- --sub <userId> [--ttl <30m, 12h, 7d or seconds; default ${DEFAULT_TTL}>]` +
  ' (in the image: node dist/src/auth/token.cli.js --sub <userId> [--ttl ...])';

try {
  const { values } = parseArgs({ options: { sub: { type: 'string' }, ttl: { type: 'string', default: DEFAULT_TTL } } });
  if (!values.sub) throw new Error(USAGE);
  process.stdout.write(`${signToken(AppConfig.load(), values.sub, parseTtl(values.ttl))}\n`);
} catch (error) {
  process.stderr.write(`${(error as Error).message}\n`);
  process.exitCode = 1;
}
