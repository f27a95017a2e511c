import { type Db, pendingMigrations } from '../../db';
import { pingDatabase } from './queries';

const migrated = new WeakSet<Db>();

/**
 * Ready when the database answers and every migration has run. Migrations never un-run, so once
 * seen applied only the ping remains: a probe every second costs one trivial query.
 */
export async function checkReadiness(db: Db): Promise<boolean> {
  try {
    await pingDatabase(db.kysely);
    if (!migrated.has(db)) {
      if ((await pendingMigrations(db)).length > 0) return false;
      migrated.add(db);
    }
    return true;
  } catch (error) {
    // An outage is recorded like any request's; anything else is a bug and must not look healthy.
    db.health.failed(error);
    return false;
  }
}
