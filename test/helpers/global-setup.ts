/** Says loudly when the PostgreSQL suites cannot run, and refuses to let CI pass without them. */
export default function setup() {
  if (process.env.TEST_DATABASE_URL) return;
  const message =
    'PostgreSQL suites SKIPPED: TEST_DATABASE_URL is not set; database tests run on SQLite only.';
  if (process.env.CI === 'true' || process.env.REQUIRE_POSTGRES === '1') {
    throw new Error(`${message} CI requires them.`);
  }
  console.warn(`\n*** ${message} ***\n`);
}
