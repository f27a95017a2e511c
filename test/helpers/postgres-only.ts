import { describe } from 'vitest';
import { TEST_DIALECTS } from './databases';

/**
 * A suite about PostgreSQL alone (several instances on one database, its outages). Without
 * TEST_DATABASE_URL it is skipped, which the global set-up announces and CI refuses.
 */
export const describeOnPostgres = describe.skipIf(!TEST_DIALECTS.includes('postgres'));
