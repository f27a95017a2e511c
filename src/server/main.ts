import fs from 'node:fs';
import path from 'node:path';
import { buildApp } from './app';
import { type Config, loadConfig } from './config';
import { type Db, migrateToLatest, openDatabase } from './db';
import { makePrivateDir } from './lib/private-files';
import { resolveSecret } from './lib/secrets';
import {
  checkDemoPassword,
  DEMO_PASSWORD_FILE,
  demoLoginLines,
  generateDemoPassword,
  retirePublishedDemoPassword,
  saveDemoPassword,
  seedDemo,
} from './seed/demo';
import { sampleResponsesSeeder } from './seed/sample-responses';

/** Well inside systemd's 90 s stop timeout. */
const SHUTDOWN_LIMIT_MS = 20_000;

async function main() {
  const config = loadConfig();
  // The data folder is ours: tighten what an older version left readable (new ones start 0700).
  if (fs.existsSync(config.dataDir)) makePrivateDir(config.dataDir);
  const db = openDatabase(config.database);
  await migrateToLatest(db);
  const demo = config.seedDemo ? await prepareDemo(db, config) : null;
  const app = await buildApp({
    db,
    config,
    secret: resolveSecret(config.sessionSecret, config.dataDir),
    ...(config.webRoot ? { webRoot: config.webRoot } : {}),
  });

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info(`${signal} received, closing`);
    // Whatever holds the close (a hung relay has its own grace period), a supervisor's stop
    // timeout must never have to kill the process in the middle of its work.
    setTimeout(() => {
      app.log.error('shutdown took too long; exiting now');
      process.exit(1);
    }, SHUTDOWN_LIMIT_MS).unref();
    await app.close();
    await db.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));

  const address = await app.listen({ port: config.port, host: config.host });
  const shown = address.replace('0.0.0.0', 'localhost').replace('[::]', 'localhost');
  const where = config.database.kind === 'sqlite' ? config.database.file : 'PostgreSQL';
  console.log(`\n${config.web.brandName} Health is running at ${shown} (database: ${where})`);
  if (demo) console.log(demoLoginLines(demo).join('\n'));
}

/** Seeds the demo on first start with its own password, saved for the operator unless chosen. */
async function prepareDemo(db: Db, config: Config) {
  const chosen = config.demoPassword !== null;
  const password = config.demoPassword ?? generateDemoPassword();
  if (chosen) checkDemoPassword(password, config.web.brandName);
  const seedResponses = sampleResponsesSeeder({
    brandName: config.web.brandName,
    linkBase: config.mail.linkBase,
  });
  const seeded =
    (await seedDemo(db.kysely, { password, seedResponses })) ||
    (await retirePublishedDemoPassword(db.kysely, password));
  const file = path.join(config.dataDir, DEMO_PASSWORD_FILE);
  if (seeded && !chosen) saveDemoPassword(config.dataDir, password);
  return { seeded, password, chosen, file };
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
