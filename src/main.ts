import 'reflect-metadata';
import { INestApplication, Logger } from '@nestjs/common';
import { createApp } from './app.setup';
import { HttpDrain } from './platform/http/http-drain';
import { AppConfig, ConfigurationError } from './platform/config/app-config';
import { FirstOwnerInvitation, signToken, type FirstOwnerLink } from './auth';
import { claimDataDir } from './platform/database/data-dir-claim';
import { assertEmbeddedPostgresInstalled } from './platform/database/embedded-postgres';
import { bannerAsLogLine, formatBanner, startupBanner } from './startup-banner';
import { steadyHeapGrowth } from './platform/heap-growth';

steadyHeapGrowth();

const SHUTDOWN_DEADLINE_MS = 30_000;
// The user of the README's examples, so that what they send shows up under the banner's token.
const DEMO_USER = 'ada';
const DEMO_TOKEN_TTL_SECONDS = 24 * 3600;

async function bootstrap(): Promise<void> {
  const config = AppConfig.load();
  // Before Nest starts, so that each stops the start with one line: an image without the embedded
  // server, and a second process on the same one.
  if (!config.databaseUrl) {
    assertEmbeddedPostgresInstalled();
    claimDataDir(config.dataDir, config.port);
  }
  const drain = new HttpDrain();
  const app = await createApp(config, drain);
  const logger = new Logger('Mailroom');
  stopGracefullyOn(
    ['SIGTERM', 'SIGINT'],
    async () => {
      // New requests are refused at once and the workers stop taking jobs at once; what is in
      // flight on either side finishes, then the server and the database close.
      void drain.drain();
      await app.close();
    },
    logger,
  );
  // Made before listening, so that the banner is out as soon as the service answers.
  const firstOwner = await firstOwnerLink(app, config).catch((err: unknown) => {
    logger.warn({ err }, 'Could not make the first owner’s invitation; npm run member makes one');
    return undefined;
  });
  // Every role listens: a worker only for /health and /metrics (see createApp).
  await listenOrExplain(app, config);
  const banner = startupBanner(config, demoToken(config), firstOwner);
  // People read a terminal; log collectors read JSON lines.
  if (config.production) logger.log(bannerAsLogLine(banner));
  else process.stdout.write(formatBanner(banner));
}

/** A taken port is a configuration problem: one line naming PORT, and the database stopped. */
async function listenOrExplain(app: INestApplication, config: AppConfig): Promise<void> {
  try {
    await app.listen(config.port, config.host);
  } catch (error) {
    const reason = LISTEN_FAILURES[(error as NodeJS.ErrnoException).code ?? ''];
    if (!reason) throw error;
    await app.close();
    throw new ConfigurationError(`Port ${config.port} ${reason}; set PORT to another one.`);
  }
}

const LISTEN_FAILURES: Record<string, string> = {
  EADDRINUSE: 'is in use',
  EACCES: 'needs privileges this process does not have',
};

/** A token for trying the API, outside production, where there is an API and this process can sign one. */
function demoToken(config: AppConfig): { user: string; token: string; ttl: string } | undefined {
  if (config.production || config.role === 'worker' || config.auth.verification.kind !== 'secret') return undefined;
  return { user: DEMO_USER, token: signToken(config, DEMO_USER, DEMO_TOKEN_TTL_SECONDS), ttl: '24 h' };
}

/**
 * While the demo account has no member, a link that makes its first owner (docs/teams.md#the-first-owner):
 * outside production only, where the banner is read at a terminal (a production log would keep an
 * owner's credential), and where there is an API to accept it.
 */
async function firstOwnerLink(app: INestApplication, config: AppConfig): Promise<FirstOwnerLink | undefined> {
  if (config.production || config.role === 'worker') return undefined;
  return app.get(FirstOwnerInvitation).linkWhileNoMember(DEMO_USER);
}

/**
 * Stops taking work, lets what is in flight finish, closes the database, and exits 0 (docs/scaling.md).
 * A signal during the shutdown changes nothing: Ctrl-C under `npm start` arrives twice (the
 * terminal signals the whole group, and npm forwards its own), and without a listener the second
 * would kill the process halfway.
 */
function stopGracefullyOn(signals: NodeJS.Signals[], close: () => Promise<void>, logger: Logger): void {
  let stopping = false;
  for (const signal of signals) {
    process.on(signal, () => {
      if (stopping) return;
      stopping = true;
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
