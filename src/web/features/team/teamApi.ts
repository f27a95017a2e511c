import { z } from 'zod/mini';
import { postStaffSecondFactorReset } from '../../../common/endpoints/second-factor';
import { postSsoLink } from '../../../common/endpoints/sso';
import {
  deleteStaff,
  deleteStaffInvitations,
  getStaff,
  getStaffInvite,
  postStaff,
  postStaffInvitationsResend,
  postStaffInvite,
  postStaffSsoLink,
  putStaff,
} from '../../../common/endpoints/staff';
import type { StaffRoleName } from '../../../common/roles';
import type { InviteRequest } from '../../../common/schemas/staff';
import { api } from '../../api';

export const TEAM_QUERY_KEY = ['staff'] as const;

export const fetchTeam = () => api.call(getStaff);

export const inviteMember = (request: InviteRequest) => api.call(postStaff, { body: request });

export const changeRole = (id: number, role: StaffRoleName) =>
  api.call(putStaff, { params: { id }, body: { role } });

/** Another admin resets a colleague's lost second factor; they set up a new one at their next sign-in. */
export const resetSecondFactor = (id: number) => api.call(postStaffSecondFactorReset, { params: { id } });

export const removeMember = (id: number) => api.call(deleteStaff, { params: { id } });

/** The member's next single sign-on (within 24 hours) may link their institution identity. */
export const allowSsoLink = (id: number) => api.call(postStaffSsoLink, { params: { id } });

const _SsoLinkStart = z.object({ success: z.literal(true), authorization_url: z.string() });

/** Starts linking the signed-in account's own institution identity: the provider's address to go to. */
export const startOwnSsoLink = () => api.call(postSsoLink);

export const resendInvitation = (id: number) => api.call(postStaffInvitationsResend, { params: { id } });

export const revokeInvitation = (id: number) => api.call(deleteStaffInvitations, { params: { id } });

export const fetchInvitation = (token: string) => api.call(getStaffInvite, { params: { token } });

export const acceptInvitation = (token: string, password: string, confirmPassword: string) =>
  api.call(postStaffInvite, {
    params: { token },
    body: {
      password,
      confirm_password: confirmPassword,
    },
  });
