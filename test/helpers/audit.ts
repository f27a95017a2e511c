import type { ExpressionBuilder } from 'kysely';
import type { Database } from '../../src/server/db/types';

/**
 * Leaves out of an audit-log query what signing in records (sign-ins, second factors, the app a
 * test's sign-in sets up, recovery codes it renews): a test about other work reads only that work.
 */
export function notSigningIn(eb: ExpressionBuilder<Database, 'audit_log'>) {
  return eb.and([
    eb('action', 'not like', 'auth.%'),
    eb('action', 'not in', ['staff.app_enrol', 'staff.recovery_codes_replace']),
  ]);
}
