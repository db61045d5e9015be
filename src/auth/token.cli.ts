// Prints a token signed with the configured key: `npm run token -- --sub <userId> [--ttl 1h]` from
// the sources, `node dist/src/auth/token.cli.js --sub <userId>` where only the build is (the image).
import 'reflect-metadata';
import { parseArgs } from 'node:util';
import { AppConfig } from '../config/app-config';
import { parseTtl, signToken } from './token-signer';

try {
  const { values } = parseArgs({ options: { sub: { type: 'string' }, ttl: { type: 'string', default: '1h' } } });
  if (!values.sub) throw new Error('Usage: npm run token -- --sub <userId> [--ttl 1h] (in the image: node dist/src/auth/token.cli.js --sub <userId>)');
  process.stdout.write(`${signToken(AppConfig.load(), values.sub, parseTtl(values.ttl!))}\n`);
} catch (error) {
  process.stderr.write(`${(error as Error).message}\n`);
  process.exitCode = 1;
}
