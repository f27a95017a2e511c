import { emailDomain } from '../../../common/institution-email';
import type { Executor } from '../../db/executor';
import { recordAudit, recordAuditIf, selfActor } from '../../lib/audit';
import { AppError } from '../../lib/errors';
import type { SessionUser } from '../../lib/sessions';
import { institutionOfDomain } from '../verify';
import { findUserByEmail } from './queries';

/**
 * Sign-ins and their failures in the institution's audit log, with the client address and never
 * the password. Written beside the answer, which it never changes: a refusal for an account that
 * does not exist answers exactly as before, and is recorded for the institution of the address's
 * domain without an account (only the domain is kept: what was typed may be a mistyped password).
 */
export async function auditSignIn(db: Executor, user: SessionUser, method: string, address: string) {
  await recordAuditIf(db, selfActor(user, address), {
    action: 'auth.sign_in',
    subject: { type: 'user', id: user.id },
    detail: { method },
  });
}

/** A refused password sign-in: a lockout when refused for too many failures, else a failure. */
export async function auditSignInRefusal(db: Executor, email: string, address: string, error: unknown) {
  if (!(error instanceof AppError)) return;
  const lockout = error.code === 'TOO_MANY_REQUESTS';
  const action = lockout ? 'auth.lockout' : 'auth.sign_in_fail';
  const account = await findUserByEmail(db, email);
  if (account) {
    const actor = selfActor(
      { id: account.id, email: account.email, institutionId: account.institution_id },
      address,
    );
    await recordAuditIf(db, actor, {
      action,
      subject: { type: 'user', id: account.id },
      detail: { method: 'password', ...(lockout ? {} : { reason: error.code.toLowerCase() }) },
    });
    return;
  }
  const domain = emailDomain(email);
  const institution = await institutionOfDomain(db, domain);
  if (!institution) return;
  await recordAudit(
    db,
    { institutionId: institution.id, userId: null, email: null, address },
    { action, detail: { method: 'password', account: 'unknown', email_domain: domain } },
  );
}
