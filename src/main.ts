import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { createApp } from './app.setup';
import { AppConfig, ConfigurationError } from './config/app-config';
import { signToken } from './auth/token-signer';

const SHUTDOWN_DEADLINE_MS = 30_000;
const DEMO_USER = 'demo-user';
const DEMO_TOKEN_TTL_SECONDS = 24 * 3600;

async function bootstrap(): Promise<void> {
  const config = AppConfig.load();
  const app = await createApp(config);
  const logger = new Logger('Mailroom');
  stopGracefullyOn(
    ['SIGTERM', 'SIGINT'],
    async () => {
      // No new requests (the listener closes, idle connections too), then the drains and the rest.
      app.getHttpServer().close();
      await app.close();
    },
    logger,
  );
  if (config.role === 'worker') {
    // listen() is what flushes the logs buffered during start-up; a worker never calls it.
    app.flushLogs();
    logger.log('Delivering (ROLE=worker: no HTTP listener)');
    return;
  }
  await app.listen(config.port, config.host);
  const base = `http://localhost:${config.port}`;
  logger.log(`Listening on ${config.host}:${config.port} (ROLE=${config.role}); Swagger UI at ${base}/docs`);
  if (!config.production && config.auth.verification.kind === 'secret') {
    const token = signToken(config, DEMO_USER, DEMO_TOKEN_TTL_SECONDS);
    logger.log(`Token for user "${DEMO_USER}", valid 24 h: ${token}`);
  }
}

/** Stops taking work, lets what is in flight finish, closes the database, and exits 0 (SPEC §8). */
function stopGracefullyOn(signals: NodeJS.Signals[], close: () => Promise<void>, logger: Logger): void {
  for (const signal of signals) {
    process.once(signal, () => {
      logger.log(`${signal}: shutting down`);
      setTimeout(() => {
        logger.error(`Shutdown took longer than ${SHUTDOWN_DEADLINE_MS / 1000} s; exiting anyway`);
        process.exit(1);
      }, SHUTDOWN_DEADLINE_MS).unref();
      close().then(
        () => process.exit(0),
        (error: unknown) => {
          logger.error(error);
          process.exit(1);
        },
      );
    });
  }
}

bootstrap().catch((error: unknown) => {
  process.stderr.write(`${error instanceof ConfigurationError ? error.message : (error as Error).stack}\n`);
  process.exit(1);
});
