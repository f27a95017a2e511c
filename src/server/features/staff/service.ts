import crypto from 'node:crypto';
import type { Kysely, Selectable } from 'kysely';
import { nameFirstNameFirst } from '../../../common/person-name';
import { roleName, STORED_STAFF_ROLE, type StaffRoleName } from '../../../common/roles';
import {
  INVITATION_LIFETIME_DAYS,
  type PendingInvitation,
  type StaffMember,
  type TeamResponse,
} from '../../../common/schemas/staff';
import type { Executor } from '../../db/executor';
import { writeTransaction } from '../../db/transaction-runner';
import type { Database, StaffInvitationsTable, StaffRole } from '../../db/types';
import { type AuditActor, recordAudit } from '../../lib/audit';
import { AppError } from '../../lib/errors';
import { languagesByEmail, translate } from '../../lib/i18n';
import { mailLink } from '../../lib/mail/links';
import { enqueueMail } from '../../lib/mail/outbox';
import { hashPassword, passwordProblem } from '../../lib/passwords';
import { createSession, type SessionUser, userHasSecondFactor } from '../../lib/sessions';
import { DAY, now } from '../../lib/time';
import { deleteSecondFactors } from '../second-factor';
import { forgetIdentitiesOf, linkedUserIds, linkGrantsOf, ssoSettingsRow } from '../sso';
import * as queries from './queries';

export const INVITATION_LIFETIME = INVITATION_LIFETIME_DAYS * DAY;
export const MEMBER_NOT_FOUND = 'Team member not found';
export const INVITATION_NOT_FOUND = 'Invitation not found';
export const INVITATION_EXPIRED = 'This invitation has expired. Ask your administrator to send a new one.';
export const INVITATION_USED = 'This invitation has already been used. Log in instead.';
export const INVITATION_REVOKED =
  'This invitation was withdrawn. Ask your administrator if you still need access.';
export const LAST_ADMIN = 'Your institution needs at least one admin. Make someone else an admin first.';
export const ALREADY_MEMBER = (email: string) => `${email} already has an account.`;
export const ALREADY_INVITED = (email: string) =>
  `An invitation to ${email} is already waiting. Re-send it or withdraw it instead.`;
export const INVITATION_SENT = (email: string) => `Invitation sent to ${email}.`;

function hashToken(token: string): string {
  return crypto.createHash('sha256').update(token).digest('hex');
}

function newToken(): { token: string; tokenHash: string } {
  const token = crypto.randomBytes(32).toString('base64url');
  return { token, tokenHash: hashToken(token) };
}

const iso = (at: number) => new Date(at).toISOString();

function toMember(row: {
  id: number;
  name: string;
  email: string;
  role: string;
  created_at: number;
}): StaffMember {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    role: roleName(row.role as StaffRole) as StaffRoleName,
    joined_at: iso(Number(row.created_at)),
  };
}

function toInvitation(row: Selectable<StaffInvitationsTable>, at: number): PendingInvitation {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    role: roleName(row.role) as StaffRoleName,
    invited_at: iso(Number(row.created_at)),
    expires_at: iso(Number(row.expires_at)),
    expired: Number(row.expires_at) <= at,
  };
}

/** Where an invitation link leads: absolute when the server knows its public address. */
function invitationLink(linkBase: string, token: string): string {
  const path = `/staff/invite/${token}/`;
  return mailLink(linkBase, path);
}

const INVITATION_SUBJECT = /*i18n*/ {
  id: 'mail.staff-invitation.subject',
  message: 'You are invited to join {institution} on {brand} Health',
};
const INVITATION_BODY = /*i18n*/ {
  id: 'mail.staff-invitation.body',
  message:
    'Hello {name},\n\nYou have been invited to join {institution} on {brand} Health as {role, select, admin {an admin} counsellor {a counsellor} other {a viewer}}.\nChoose your password here: {link}\n\nThe link works once and for {days} days. If you were not expecting it, you can ignore this mail.',
};

/** The mail carries a link, the institution and who is invited as what; never student data. */
function invitationMail(options: {
  brandName: string;
  institutionName: string;
  to: string;
  name: string;
  role: StaffRoleName;
  link: string;
  language: string | null;
}) {
  const values = {
    brand: options.brandName,
    institution: options.institutionName,
    name: nameFirstNameFirst(options.name),
    role: options.role,
    link: options.link,
    days: INVITATION_LIFETIME_DAYS,
  };
  return {
    to: options.to,
    subject: translate(options.language, INVITATION_SUBJECT, values),
    text: translate(options.language, INVITATION_BODY, values),
  };
}

/** An invitee's language: theirs if the address had an account here before; English otherwise. */
async function inviteeLanguage(trx: Executor, email: string): Promise<string | null> {
  return (await languagesByEmail(trx, [email])).get(email.toLowerCase()) ?? null;
}

export interface MailContext {
  brandName: string;
  linkBase: string;
}

export async function listTeam(options: { db: Executor; institutionId: number }): Promise<TeamResponse> {
  const at = now();
  const members = await queries.listMembers(options.db, options.institutionId);
  const invitations = await queries.listPendingInvitations(options.db, options.institutionId);
  const ids = members.map((member) => member.id);
  const linked = await linkedUserIds(options.db, ids);
  const allowed = await linkGrantsOf(options.db, ids, at);
  const sso = await ssoSettingsRow(options.db, options.institutionId);
  return {
    success: true,
    single_sign_on: sso !== undefined,
    members: members.map((member) => {
      const until = allowed.get(member.id);
      return {
        ...toMember(member),
        sso_linked: linked.has(member.id),
        sso_link_allowed_until: until === undefined ? null : new Date(until).toISOString(),
      };
    }),
    invitations: invitations.map((row) => toInvitation(row, at)),
  };
}

async function institutionName(db: Executor, institutionId: number): Promise<string> {
  const row = await db
    .selectFrom('institutions')
    .select('name')
    .where('id', '=', institutionId)
    .executeTakeFirstOrThrow();
  return row.name;
}

/** Invites someone to the staff: a mail with a one-time link, valid for a week. */
export async function inviteMember(options: {
  db: Kysely<Database>;
  actor: AuditActor;
  mail: MailContext;
  email: string;
  name: string;
  role: StaffRoleName;
}): Promise<PendingInvitation> {
  const { db, actor, email } = options;
  const institutionId = actor.institutionId;
  return writeTransaction(db, async (trx) => {
    await queries.lockInstitutionStaff(trx, institutionId);
    const existing = await queries.findUserByEmail(trx, email);
    // Someone of this institution already has an account (a removed member may be invited back).
    // An account elsewhere is not said: that would tell this admin who is signed up at another
    // institution. The invitation goes out as any other, and only its link says it cannot be used.
    if (existing && existing.institution_id === institutionId && existing.removed_at === null)
      throw new AppError('CONFLICT', ALREADY_MEMBER(email));
    if (await queries.findPendingInvitationByEmail(trx, institutionId, email))
      throw new AppError('CONFLICT', ALREADY_INVITED(email));
    const at = now();
    const { token, tokenHash } = newToken();
    const row = {
      institution_id: institutionId,
      email,
      name: options.name,
      role: STORED_STAFF_ROLE[options.role],
      token_hash: tokenHash,
      invited_by: actor.userId,
      created_at: at,
      expires_at: at + INVITATION_LIFETIME,
      accepted_at: null,
      revoked_at: null,
    };
    const id = await queries.insertInvitation(trx, row);
    await enqueueMail(
      trx,
      invitationMail({
        brandName: options.mail.brandName,
        institutionName: await institutionName(trx, institutionId),
        to: email,
        name: options.name,
        role: options.role,
        link: invitationLink(options.mail.linkBase, token),
        language: await inviteeLanguage(trx, email),
      }),
      at,
    );
    await recordAudit(trx, actor, {
      action: 'staff.invite',
      subject: { type: 'invitation', id },
      detail: { email, role: options.role },
    });
    return toInvitation({ ...row, id }, at);
  });
}

/** Sends a pending invitation again with a new link and a new week; the old link stops working. */
export async function resendInvitation(options: {
  db: Kysely<Database>;
  actor: AuditActor;
  mail: MailContext;
  invitationId: number;
}): Promise<PendingInvitation> {
  const { db, actor } = options;
  return writeTransaction(db, async (trx) => {
    const invitation = await queries.findPendingInvitation(trx, actor.institutionId, options.invitationId);
    if (!invitation) throw new AppError('NOT_FOUND', INVITATION_NOT_FOUND);
    const at = now();
    const { token, tokenHash } = newToken();
    const expiresAt = at + INVITATION_LIFETIME;
    await queries.renewInvitation(trx, invitation.id, { tokenHash, createdAt: at, expiresAt });
    const role = roleName(invitation.role) as StaffRoleName;
    await enqueueMail(
      trx,
      invitationMail({
        brandName: options.mail.brandName,
        institutionName: await institutionName(trx, actor.institutionId),
        to: invitation.email,
        name: invitation.name,
        role,
        link: invitationLink(options.mail.linkBase, token),
        language: await inviteeLanguage(trx, invitation.email),
      }),
      at,
    );
    await recordAudit(trx, actor, {
      action: 'staff.invite.resend',
      subject: { type: 'invitation', id: invitation.id },
      detail: { email: invitation.email },
    });
    return toInvitation({ ...invitation, token_hash: tokenHash, created_at: at, expires_at: expiresAt }, at);
  });
}

export async function revokeInvitation(options: {
  db: Kysely<Database>;
  actor: AuditActor;
  invitationId: number;
}): Promise<void> {
  const { db, actor } = options;
  await writeTransaction(db, async (trx) => {
    const invitation = await queries.findPendingInvitation(trx, actor.institutionId, options.invitationId);
    if (!invitation) throw new AppError('NOT_FOUND', INVITATION_NOT_FOUND);
    await queries.revokeInvitation(trx, invitation.id, now());
    await recordAudit(trx, actor, {
      action: 'staff.invite.revoke',
      subject: { type: 'invitation', id: invitation.id },
      detail: { email: invitation.email },
    });
  });
}

/** Refuses a change that would leave the institution without an admin. */
async function keepOneAdmin(trx: Executor, institutionId: number, member: { role: string }) {
  if (member.role === 'institution_admin' && (await queries.countAdmins(trx, institutionId)) <= 1)
    throw new AppError('CONFLICT', LAST_ADMIN);
}

/**
 * Gives a member another role. Their sessions end: every open tab and live dashboard starts
 * again from the new rights instead of keeping what the old role showed.
 */
export async function changeRole(options: {
  db: Kysely<Database>;
  actor: AuditActor;
  userId: number;
  role: StaffRoleName;
}): Promise<StaffMember> {
  const { db, actor, userId } = options;
  return writeTransaction(db, async (trx) => {
    await queries.lockInstitutionStaff(trx, actor.institutionId);
    const member = await queries.findMember(trx, actor.institutionId, userId);
    if (!member) throw new AppError('NOT_FOUND', MEMBER_NOT_FOUND);
    const role = STORED_STAFF_ROLE[options.role];
    if (member.role === role) return toMember(member);
    if (role !== 'institution_admin') await keepOneAdmin(trx, actor.institutionId, member);
    await queries.setRole(trx, userId, role);
    await queries.endSessionsOf(trx, userId);
    await recordAudit(trx, actor, {
      action: 'staff.role.change',
      subject: { type: 'user', id: userId },
      detail: { email: member.email, from: roleName(member.role), to: options.role },
    });
    return toMember({ ...member, role });
  });
}

/**
 * Removes a member's access: they are signed out at once and cannot sign in again, and their
 * passkeys, authenticator app and recovery codes are deleted, so that invited back they set up
 * new ones rather than find the old ones (perhaps in someone else's hands) still working.
 */
export async function removeMember(options: {
  db: Kysely<Database>;
  actor: AuditActor;
  userId: number;
}): Promise<void> {
  const { db, actor, userId } = options;
  await writeTransaction(db, async (trx) => {
    await queries.lockInstitutionStaff(trx, actor.institutionId);
    const member = await queries.findMember(trx, actor.institutionId, userId);
    if (!member) throw new AppError('NOT_FOUND', MEMBER_NOT_FOUND);
    await keepOneAdmin(trx, actor.institutionId, member);
    await queries.markRemoved(trx, userId, now());
    await queries.endSessionsOf(trx, userId);
    await deleteSecondFactors(trx, userId);
    await forgetIdentitiesOf(trx, userId);
    await recordAudit(trx, actor, {
      action: 'staff.remove',
      subject: { type: 'user', id: userId },
      detail: { email: member.email, role: roleName(member.role) },
    });
  });
}

/** A usable invitation by its token, or the reason it cannot be used. */
async function usableInvitation(db: Executor, token: string, at: number) {
  const invitation = await queries.findInvitationByToken(db, hashToken(token));
  if (!invitation) throw new AppError('NOT_FOUND', INVITATION_NOT_FOUND);
  if (invitation.accepted_at !== null) throw new AppError('NOT_FOUND', INVITATION_USED);
  if (invitation.revoked_at !== null) throw new AppError('NOT_FOUND', INVITATION_REVOKED);
  if (Number(invitation.expires_at) <= at) throw new AppError('NOT_FOUND', INVITATION_EXPIRED);
  return invitation;
}

export async function describeInvitation(options: { db: Executor; token: string }) {
  const invitation = await usableInvitation(options.db, options.token, now());
  return {
    success: true as const,
    email: invitation.email,
    name: invitation.name,
    role: roleName(invitation.role) as StaffRoleName,
    institution_name: invitation.institution_name,
  };
}

/**
 * The invited person chooses a password (the registration rules) and joins the staff with the
 * invited role; the link then stops working. Returns the new session for the caller's cookies.
 */
export async function acceptInvitation(options: {
  db: Kysely<Database>;
  brandName: string;
  token: string;
  password: string;
  confirmPassword: string;
  address: string;
}): Promise<{ user: SessionUser; sessionId: string; sessionIdHash: string }> {
  const { db, token, password } = options;
  if (password !== options.confirmPassword) throw new AppError('BAD_REQUEST', 'Passwords do not match');
  const invitation = await usableInvitation(db, token, now());
  const weakness = passwordProblem(password, {
    email: invitation.email,
    name: invitation.name,
    institutionName: invitation.institution_name,
    brandName: options.brandName,
  });
  if (weakness) throw new AppError('BAD_REQUEST', weakness);
  const passwordHash = await hashPassword(password);
  return writeTransaction(db, async (trx) => {
    await queries.lockInstitutionStaff(trx, invitation.institution_id);
    const at = now();
    // Checked again inside the transaction: it may have been used, withdrawn or re-sent meanwhile.
    const current = await usableInvitation(trx, token, at);
    if (!(await queries.acceptInvitation(trx, current.id, at)))
      throw new AppError('NOT_FOUND', INVITATION_USED);
    const existing = await queries.findUserByEmail(trx, current.email);
    let userId: number;
    if (!existing) {
      userId = await queries.insertMember(trx, {
        institutionId: current.institution_id,
        email: current.email,
        name: current.name,
        role: current.role,
        passwordHash,
        at,
      });
    } else if (existing.removed_at !== null && existing.institution_id === current.institution_id) {
      userId = existing.id;
      await queries.restoreMember(trx, userId, { name: current.name, role: current.role, passwordHash });
      // Whatever a removal before this rule left behind: the member enrols anew.
      await deleteSecondFactors(trx, userId);
      await forgetIdentitiesOf(trx, userId);
      await queries.endSessionsOf(trx, userId);
    } else {
      throw new AppError('CONFLICT', ALREADY_MEMBER(current.email));
    }
    const user: SessionUser = {
      id: userId,
      email: current.email,
      name: current.name,
      role: current.role,
      institutionId: current.institution_id,
      institutionName: current.institution_name,
      institutionTimeZone: current.institution_time_zone,
      // A member restored keeps the language they chose before.
      language: existing?.language ?? null,
      // Signed in by the password just set: the app asks for a second factor next (design section 11).
      signInMethod: 'password',
      hasSecondFactor: await userHasSecondFactor(trx, userId),
    };
    await recordAudit(
      trx,
      { institutionId: current.institution_id, userId, email: current.email, address: options.address },
      {
        action: 'staff.join',
        subject: { type: 'invitation', id: current.id },
        detail: { role: roleName(current.role) },
      },
    );
    const { sessionId, idHash } = await createSession(trx, userId);
    return { user, sessionId, sessionIdHash: idHash };
  });
}
