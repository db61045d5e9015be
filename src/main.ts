import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { createApp } from './app.setup';
import { AppConfig, ConfigurationError } from './config/app-config';
import { signToken } from './auth/token-signer';

const DEMO_USER = 'demo-user';
const DEMO_TOKEN_TTL_SECONDS = 24 * 3600;

async function bootstrap(): Promise<void> {
  const config = AppConfig.load();
  const app = await createApp(config);
  await app.listen(config.port, config.host);
  const logger = new Logger('Mailroom');
  const base = `http://localhost:${config.port}`;
  logger.log(`Listening on ${config.host}:${config.port}; Swagger UI at ${base}/docs`);
  if (!config.production && config.auth.verification.kind === 'secret') {
    const token = signToken(config, DEMO_USER, DEMO_TOKEN_TTL_SECONDS);
    logger.log(`Token for user "${DEMO_USER}", valid 24 h: ${token}`);
  }
}

bootstrap().catch((error: unknown) => {
  process.stderr.write(`${error instanceof ConfigurationError ? error.message : (error as Error).stack}\n`);
  process.exit(1);
});
