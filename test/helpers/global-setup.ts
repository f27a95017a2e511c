import { createTemplateDatabase, TEMPLATE_DATABASE_VARIABLE } from './postgres-template';

/**
 * Says loudly when the PostgreSQL suites cannot run, and refuses to let CI pass without them.
 * When they can, migrates one template database for the whole run (the workers, started after
 * this, find its name in their environment) and drops it and its clones at the end.
 */
export default async function setup() {
  const url = process.env.TEST_DATABASE_URL;
  if (url) {
    const template = await createTemplateDatabase(url);
    process.env[TEMPLATE_DATABASE_VARIABLE] = template.name;
    return () => template.drop();
  }
  const message =
    'PostgreSQL suites SKIPPED: TEST_DATABASE_URL is not set; database tests run on SQLite only.';
  if (process.env.CI === 'true' || process.env.REQUIRE_POSTGRES === '1') {
    throw new Error(`${message} CI requires them.`);
  }
  console.warn(`\n*** ${message} ***\n`);
}
