import * as passwordReset from '../../../common/endpoints/password-reset';
import type { LoginRequest } from '../../../common/schemas/auth';
import { api } from '../../api';

/** Asks for a mailed link; the answer is the same whatever the address. */
export function requestPasswordReset(email: string) {
  return api.call(passwordReset.requestPasswordReset, { body: { email } });
}

export function chooseNewPassword(token: string, password: string, confirmPassword: string) {
  return api.call(passwordReset.resetPassword, {
    params: { token },
    body: {
      password,
      confirm_password: confirmPassword,
    },
  });
}

/**
 * A new code for a registration still waiting for one, given its password (same answer for all).
 * Its contract is loaded when it is needed: the login page does not carry its schemas (and zod).
 */
export async function resendRegistrationCode(credentials: LoginRequest) {
  const unconfirmedAddress = await import('../../../common/endpoints/unconfirmed-address');
  return api.call(unconfirmedAddress.resendRegistrationCode, { body: credentials });
}
