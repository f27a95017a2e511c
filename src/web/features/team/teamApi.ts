import { z } from 'zod/mini';
import type { StaffRoleName } from '../../../common/roles';
import { LoginResponse } from '../../../common/schemas/auth';
import { SuccessMessage } from '../../../common/schemas/common';
import {
  InvitationDetails,
  InvitationResponse,
  type InviteRequest,
  MemberResponse,
  SsoLinkAllowedResponse,
  TeamResponse,
} from '../../../common/schemas/staff';
import { api } from '../../api';

export const TEAM_QUERY_KEY = ['staff'] as const;

export const fetchTeam = () => api.get('/api/staff/', TeamResponse);

export const inviteMember = (request: InviteRequest) => api.post('/api/staff/', InvitationResponse, request);

export const changeRole = (id: number, role: StaffRoleName) =>
  api.put(`/api/staff/${id}/`, MemberResponse, { role });

/** Another admin resets a colleague's lost second factor; they set up a new one at their next sign-in. */
export const resetSecondFactor = (id: number) =>
  api.post(`/api/staff/${id}/second-factor/reset/`, SuccessMessage);

export const removeMember = (id: number) => api.delete(`/api/staff/${id}/`, SuccessMessage);

/** The member's next single sign-on (within 24 hours) may link their institution identity. */
export const allowSsoLink = (id: number) => api.post(`/api/staff/${id}/sso-link/`, SsoLinkAllowedResponse);

const SsoLinkStart = z.object({ success: z.literal(true), authorization_url: z.string() });

/** Starts linking the signed-in account's own institution identity: the provider's address to go to. */
export const startOwnSsoLink = () => api.post('/api/sso/link/', SsoLinkStart);

export const resendInvitation = (id: number) =>
  api.post(`/api/staff/invitations/${id}/resend/`, InvitationResponse);

export const revokeInvitation = (id: number) => api.delete(`/api/staff/invitations/${id}/`, SuccessMessage);

export const fetchInvitation = (token: string) =>
  api.get(`/api/staff/invite/${encodeURIComponent(token)}/`, InvitationDetails);

export const acceptInvitation = (token: string, password: string, confirmPassword: string) =>
  api.post(`/api/staff/invite/${encodeURIComponent(token)}/`, LoginResponse, {
    password,
    confirm_password: confirmPassword,
  });
