import { z } from 'zod/mini';
import { STAFF_ROLES } from '../roles';
import { PASSWORD_MAX_LENGTH } from './auth';
import { Email } from './common';

/** How long an invitation link stays good. */
export const INVITATION_LIFETIME_DAYS = 7;

const StaffRoleField = z.enum(STAFF_ROLES, { error: 'Role must be admin, counsellor or viewer' });

export const StaffMember = z.object({
  id: z.number().check(z.int()),
  name: z.string(),
  email: z.string(),
  role: StaffRoleField,
  /** ISO 8601. */
  joined_at: z.string(),
});
export type StaffMember = z.infer<typeof StaffMember>;

/** A member as the team list shows them: with how they stand with single sign-on. */
export const TeamMember = z.extend(StaffMember, {
  /** An identity of the institution's provider is linked: they may sign in with it. */
  sso_linked: z.boolean(),
  /** ISO 8601: until when their next single sign-on may link (an admin allowed it), or null. */
  sso_link_allowed_until: z.nullable(z.string()),
});
export type TeamMember = z.infer<typeof TeamMember>;

export const PendingInvitation = z.object({
  id: z.number().check(z.int()),
  name: z.string(),
  email: z.string(),
  role: StaffRoleField,
  /** ISO 8601 times: when it was (last) sent, and when its link stops working. */
  invited_at: z.string(),
  expires_at: z.string(),
  expired: z.boolean(),
});
export type PendingInvitation = z.infer<typeof PendingInvitation>;

export const TeamResponse = z.object({
  success: z.literal(true),
  members: z.array(TeamMember),
  /** Whether the institution has single sign-on set up: only then is there anything to link. */
  single_sign_on: z.boolean(),
  invitations: z.array(PendingInvitation),
});
export type TeamResponse = z.infer<typeof TeamResponse>;

export const InviteRequest = z.object({
  email: Email,
  name: z
    .string({ error: 'Name is required' })
    .check(
      z.trim(),
      z.minLength(1, 'Name is required'),
      z.maxLength(200, 'Name must be at most 200 characters'),
    ),
  role: StaffRoleField,
});
export type InviteRequest = z.infer<typeof InviteRequest>;

export const InvitationResponse = z.object({
  success: z.literal(true),
  message: z.string(),
  invitation: PendingInvitation,
});
export type InvitationResponse = z.infer<typeof InvitationResponse>;

export const ChangeRoleRequest = z.object({ role: StaffRoleField });
export type ChangeRoleRequest = z.infer<typeof ChangeRoleRequest>;

export const MemberResponse = z.object({
  success: z.literal(true),
  message: z.string(),
  member: StaffMember,
});
export type MemberResponse = z.infer<typeof MemberResponse>;

/** What the invitation screen shows before the invited person chooses a password. */
export const InvitationDetails = z.object({
  success: z.literal(true),
  email: z.string(),
  name: z.string(),
  role: StaffRoleField,
  institution_name: z.string(),
});
export type InvitationDetails = z.infer<typeof InvitationDetails>;

const password = z
  .string({ error: 'Please fill in all required fields' })
  .check(
    z.minLength(1, 'Please fill in all required fields'),
    z.maxLength(1024, `Password must be at most ${PASSWORD_MAX_LENGTH} characters`),
  );

export const AcceptInvitationRequest = z.object({ password, confirm_password: password });
export type AcceptInvitationRequest = z.infer<typeof AcceptInvitationRequest>;

/** Invitation tokens are 43 characters of base64url; anything else is not one. */
export const InvitationToken = z.string().check(z.regex(/^[A-Za-z0-9_-]{20,100}$/, 'Invitation not found'));

export const SsoLinkAllowedResponse = z.object({
  success: z.literal(true),
  message: z.string(),
  /** ISO 8601: the permission is good once, until then. */
  expires_at: z.string(),
});
export type SsoLinkAllowedResponse = z.infer<typeof SsoLinkAllowedResponse>;
