import { z } from 'zod/mini';
import { resetStaffSecondFactor } from '../../../common/endpoints/second-factor';
import { linkSsoAccount } from '../../../common/endpoints/sso';
import {
  acceptStaffInvitation,
  allowStaffSsoLink,
  changeStaffRole,
  getStaffInvitation,
  inviteStaff,
  listStaff,
  removeStaff,
  resendStaffInvitation,
  withdrawStaffInvitation,
} from '../../../common/endpoints/staff';
import type { StaffRoleName } from '../../../common/roles';
import type { InviteRequest } from '../../../common/schemas/staff';
import { api } from '../../api';

export const TEAM_QUERY_KEY = ['staff'] as const;

export const fetchTeam = () => api.call(listStaff);

export const inviteMember = (request: InviteRequest) => api.call(inviteStaff, { body: request });

export const changeRole = (id: number, role: StaffRoleName) =>
  api.call(changeStaffRole, { params: { id }, body: { role } });

/** Another admin resets a colleague's lost second factor; they set up a new one at their next sign-in. */
export const resetSecondFactor = (id: number) => api.call(resetStaffSecondFactor, { params: { id } });

export const removeMember = (id: number) => api.call(removeStaff, { params: { id } });

/** The member's next single sign-on (within 24 hours) may link their institution identity. */
export const allowSsoLink = (id: number) => api.call(allowStaffSsoLink, { params: { id } });

const _SsoLinkStart = z.object({ success: z.literal(true), authorization_url: z.string() });

/** Starts linking the signed-in account's own institution identity: the provider's address to go to. */
export const startOwnSsoLink = () => api.call(linkSsoAccount);

export const resendInvitation = (id: number) => api.call(resendStaffInvitation, { params: { id } });

export const revokeInvitation = (id: number) => api.call(withdrawStaffInvitation, { params: { id } });

export const fetchInvitation = (token: string) => api.call(getStaffInvitation, { params: { token } });

export const acceptInvitation = (token: string, password: string, confirmPassword: string) =>
  api.call(acceptStaffInvitation, {
    params: { token },
    body: {
      password,
      confirm_password: confirmPassword,
    },
  });
