import { z } from 'zod/mini';
import { LoginResponse } from '../schemas/auth';
import { SuccessMessage } from '../schemas/common';
import {
  AcceptInvitationRequest,
  ChangeRoleRequest,
  InvitationDetails,
  InvitationResponse,
  InvitationToken,
  InviteRequest,
  MemberResponse,
  SsoLinkAllowedResponse,
  TeamResponse,
} from '../schemas/staff';
import { endpoint } from './endpoint';
import { IdParams } from './shared';

const TokenParams = /*#__PURE__*/ z.object({ token: InvitationToken });

const tags = ['staff'];

export const listStaff = /*#__PURE__*/ endpoint({
  method: 'GET',
  path: '/api/staff/',
  summary: "The institution's staff and the invitations still waiting",
  tags,
  response: { status: 200, schema: TeamResponse },
  errors: [400, 401, 403, 404, 409],
  access: { staff: 'team' },
});

export const inviteStaff = /*#__PURE__*/ endpoint({
  method: 'POST',
  path: '/api/staff/',
  summary: 'Invite someone to the staff: a mail with a link to choose a password, valid 7 days',
  tags,
  body: InviteRequest,
  response: { status: 201, schema: InvitationResponse },
  errors: [400, 401, 403, 404, 409],
  access: { staff: 'team' },
});

export const changeStaffRole = /*#__PURE__*/ endpoint({
  method: 'PUT',
  path: '/api/staff/:id/',
  summary: "Change a member's role; their sessions end so they sign in with the new one",
  tags,
  params: IdParams,
  body: ChangeRoleRequest,
  response: { status: 200, schema: MemberResponse },
  errors: [400, 401, 403, 404, 409],
  access: { staff: 'team' },
});

export const removeStaff = /*#__PURE__*/ endpoint({
  method: 'DELETE',
  path: '/api/staff/:id/',
  summary: "Remove a member's access: signed out at once, and no sign-in afterwards",
  tags,
  params: IdParams,
  response: { status: 200, schema: SuccessMessage },
  errors: [400, 401, 403, 404, 409],
  access: { staff: 'team' },
});

export const allowStaffSsoLink = /*#__PURE__*/ endpoint({
  method: 'POST',
  path: '/api/staff/:id/sso-link/',
  summary: "Allow a member's next single sign-on to link their institution identity (once, within 24 hours)",
  description:
    'For a member who cannot link from a signed-in session of their own. The sign-in must still prove their own address, verified by the provider, and still asks for the second factor unless the provider asserts a multi-factor sign-in the institution counts. A new permission replaces the last.',
  tags,
  params: IdParams,
  response: { status: 200, schema: SsoLinkAllowedResponse },
  errors: [400, 401, 403, 404, 409],
  access: { staff: 'team' },
});

export const resendStaffInvitation = /*#__PURE__*/ endpoint({
  method: 'POST',
  path: '/api/staff/invitations/:id/resend/',
  summary: 'Send a waiting invitation again with a new link and a new week; the old link stops working',
  tags,
  params: IdParams,
  response: { status: 200, schema: InvitationResponse },
  errors: [400, 401, 403, 404, 409],
  access: { staff: 'team' },
});

export const withdrawStaffInvitation = /*#__PURE__*/ endpoint({
  method: 'DELETE',
  path: '/api/staff/invitations/:id/',
  summary: 'Withdraw a waiting invitation; its link stops working',
  tags,
  params: IdParams,
  response: { status: 200, schema: SuccessMessage },
  errors: [400, 401, 403, 404, 409],
  access: { staff: 'team' },
});

export const getStaffInvitation = /*#__PURE__*/ endpoint({
  method: 'GET',
  path: '/api/staff/invite/:token/',
  summary: 'Who an invitation is for, while it can still be used',
  tags,
  params: TokenParams,
  response: { status: 200, schema: InvitationDetails },
  errors: [400, 401, 403, 404, 409],
  access: 'public',
});

export const acceptStaffInvitation = /*#__PURE__*/ endpoint({
  method: 'POST',
  path: '/api/staff/invite/:token/',
  summary: 'Choose a password and join the staff; signs the new member in',
  tags,
  params: TokenParams,
  body: AcceptInvitationRequest,
  response: { status: 200, schema: LoginResponse },
  errors: [400, 401, 403, 404, 409, 429],
  access: 'public',
});
