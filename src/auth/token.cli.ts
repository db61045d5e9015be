// `npm run token -- --sub <userId> [--ttl 1h]`: prints a token signed with the configured key.
import 'reflect-metadata';
import { parseArgs } from 'node:util';
import { AppConfig } from '../config/app-config';
import { parseTtl, signToken } from './token-signer';

try {
  const { values } = parseArgs({ options: { sub: { type: 'string' }, ttl: { type: 'string', default: '1h' } } });
  if (!values.sub) throw new Error('Usage: npm run token -- --sub <userId> [--ttl 1h]');
  process.stdout.write(`${signToken(AppConfig.load(), values.sub, parseTtl(values.ttl!))}\n`);
} catch (error) {
  process.stderr.write(`${(error as Error).message}\n`);
  process.exitCode = 1;
}
