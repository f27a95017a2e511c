import fs from 'node:fs';
import { buildApp } from './app';
import { loadConfig } from './config';
import { migrateToLatest, openDatabase } from './db';
import { seedSampleResponses } from './features/surveys/sample-responses';
import { makePrivateDir } from './lib/private-files';
import { resolveSecret } from './lib/secrets';
import { DEMO_LOGINS, seedDemo } from './seed';

async function main() {
  const config = loadConfig();
  // The data folder is ours: tighten what an older version left readable (new ones start 0700).
  if (fs.existsSync(config.dataDir)) makePrivateDir(config.dataDir);
  const db = openDatabase(config.database);
  await migrateToLatest(db);
  const seeded = config.seedDemo ? await seedDemo(db.kysely, seedSampleResponses) : false;
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
  if (config.seedDemo) {
    console.log(seeded ? 'Demo data created. Demo logins:' : 'Demo logins:');
    for (const login of DEMO_LOGINS)
      console.log(`  ${login.role.padEnd(18)} ${login.email}  password: ${login.password}`);
  }
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
