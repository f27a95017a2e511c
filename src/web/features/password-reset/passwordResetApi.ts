import type { LoginRequest } from '../../../common/schemas/auth';
import { SuccessMessage } from '../../../common/schemas/common';
import { api } from '../../api';

/** Asks for a mailed link; the answer is the same whatever the address. */
export function requestPasswordReset(email: string) {
  return api.post('/api/password-reset/', SuccessMessage, { email });
}

export function chooseNewPassword(token: string, password: string, confirmPassword: string) {
  return api.post(`/api/password-reset/${encodeURIComponent(token)}/`, SuccessMessage, {
    password,
    confirm_password: confirmPassword,
  });
}

/** A new code for a registration still waiting for one, given its password (same answer for all). */
export function resendRegistrationCode(credentials: LoginRequest) {
  return api.post('/api/register/resend-code/', SuccessMessage, credentials);
}
