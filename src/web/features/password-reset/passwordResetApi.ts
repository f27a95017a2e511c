import * as passwordReset from '../../../common/endpoints/password-reset';
import * as unconfirmedAddress from '../../../common/endpoints/unconfirmed-address';
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

/** A new code for a registration still waiting for one, given its password (same answer for all). */
export function resendRegistrationCode(credentials: LoginRequest) {
  return api.call(unconfirmedAddress.resendRegistrationCode, { body: credentials });
}
