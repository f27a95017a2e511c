import { can } from '../../../common/roles';
import type { CurrentUser } from '../../../common/schemas/auth';
import { secondFactorPathFor } from './loginPath';

/** Spec section 9: the pause between a success message and the redirect after login or registration. */
export const AUTH_REDIRECT_DELAY_MS = 600;

/**
 * Where a user goes after login: a safe `next` when given, else staff to the dashboard, others to
 * the survey; by way of the second-factor step while the sign-in still needs one.
 */
export function destinationAfterLogin(user: CurrentUser, safeNext: string | null): string {
  const destination = safeNext ?? (can(user.role, 'dashboard') ? '/dashboard/' : '/survey/');
  return user.second_factor ? secondFactorPathFor(destination) : destination;
}
