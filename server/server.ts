import { join } from 'node:path';
import pino from 'pino';
import { buildApp } from './app';
import { loadConfig, type Config } from './config';
import { openDatabase } from './db';
import { createMailer } from './mail/mailer';
import { loadSecrets } from './secrets';

export interface RunningServer {
  origin: string;
  config: Config;
  /** Stops accepting requests, lets those in flight finish, then stops the database. */
  close(): Promise<void>;
}

/** Starts the whole backend: secrets, database (embedded or DATABASE_URL), mail, HTTP. */
export async function startServer(env: NodeJS.ProcessEnv = process.env): Promise<RunningServer> {
  const config = loadConfig(env);
  const logger = pino({ level: config.logLevel, redact: ['req.headers.authorization', 'req.headers.cookie', 'req.headers.apikey'] });
  const secrets = await loadSecrets(config.dataDir);
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    embeddedDir: join(config.dataDir, 'pg'),
    embeddedPassword: secrets.pgPassword,
    log: (level, message) => logger[level](message),
  });
  const mailer = createMailer({ smtpUrl: config.smtpUrl, from: config.mailFrom, dataDir: config.dataDir });
  const shutdown = async () => {
    mailer.close();
    await database.close();
  };
  let built;
  try {
    built = await buildApp({ config, database, secrets, mailer, logger });
    built.app.addHook('onClose', shutdown);
    await built.app.listen({ port: config.port, host: config.host });
  } catch (error) {
    if (built) await built.app.close();
    else await shutdown();
    throw error;
  }
  const { app, origin } = built;
  return { origin: origin(), config, close: () => app.close() };
}
