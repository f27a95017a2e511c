import type { CurrentUser } from '../../../common/schemas/auth';

/** Spec section 9: the pause between a success message and the redirect after login or registration. */
export const AUTH_REDIRECT_DELAY_MS = 600;

/** Where a user goes after login: a safe `next` when given, else admins to the dashboard, others to the survey. */
export function destinationAfterLogin(user: CurrentUser, safeNext: string | null): string {
  if (safeNext) return safeNext;
  return user.is_institution_admin ? '/dashboard/' : '/survey/';
}
