import type { Kysely } from 'kysely';
import { roleName } from '../../../common/roles';
import type { Executor } from '../../db/executor';
import { writeTransaction } from '../../db/transaction-runner';
import type { Database, Role } from '../../db/types';
import { type AuditActor, recordAudit } from '../../lib/audit';
import { AppError } from '../../lib/errors';
import { DAY, now } from '../../lib/time';
import * as queries from './queries';

/**
 * An admin may allow a staff member's next sign-in through the institution to link their identity
 * (a member who cannot link from a signed-in session of their own, e.g. a new one who chose no
 * password). The permission is the admin's word for one member, for a day, used once: the sign-in
 * must still prove the address the provider verifies for that member's own account, and the
 * session it opens still asks for the app's second factor unless the provider's multi-factor
 * sign-in counts.
 */
export const LINK_GRANT_LIFETIME = DAY;

export const MEMBER_NOT_FOUND = 'Team member not found';
export const NO_SSO = 'Single sign-on is not set up for this institution: set it up in Settings first.';
export const ALREADY_LINKED = (name: string) => `${name} already signs in with single sign-on.`;

/** A staff member of the actor's institution, as the team (staff) knows them. */
export interface LinkableMember {
  id: number;
  name: string;
  email: string;
  role: Role;
}

export async function allowSsoLink(options: {
  db: Kysely<Database>;
  actor: AuditActor;
  /** The member, read by the team's own rules inside this transaction; undefined when not one. */
  findMember: (trx: Executor) => Promise<LinkableMember | undefined>;
}): Promise<{ name: string; expiresAt: number }> {
  const { db, actor } = options;
  return writeTransaction(db, async (trx) => {
    const member = await options.findMember(trx);
    if (!member) throw new AppError('NOT_FOUND', MEMBER_NOT_FOUND);
    const sso = await queries.ssoSettingsRow(trx, actor.institutionId);
    if (!sso) throw new AppError('CONFLICT', NO_SSO);
    if (await queries.hasIdentityAt(trx, member.id, sso.issuer))
      throw new AppError('CONFLICT', ALREADY_LINKED(member.name));
    const at = now();
    const expiresAt = at + LINK_GRANT_LIFETIME;
    await queries.saveLinkGrant(trx, {
      user_id: member.id,
      granted_by: actor.userId,
      granted_at: at,
      expires_at: expiresAt,
    });
    await recordAudit(trx, actor, {
      action: 'staff.sso_link.allow',
      subject: { type: 'user', id: member.id },
      detail: {
        email: member.email,
        role: roleName(member.role),
        expires_at: new Date(expiresAt).toISOString(),
      },
    });
    return { name: member.name, expiresAt };
  });
}

/**
 * Uses the member's permission, if one is still good: taken out in the sign-in's transaction, so
 * it links once, and stays if the sign-in fails after all.
 */
export async function takeLinkGrant(trx: Executor, userId: number, at: number): Promise<boolean> {
  return queries.takeLinkGrant(trx, userId, at);
}
