import type { FastifyRequest } from 'fastify';
import { type Ability, accessRequiredMessage, storedRolesWith } from '../../common/roles';
import type { SecondFactorStep } from '../../common/schemas/auth';
import type { Role, SignInMethod, StaffRole } from '../db/types';
import { AppError } from './errors';
import type { SessionUser } from './sessions';

/**
 * Design section 11: staff must sign in with more than a password. Every institution staff role
 * (admins, counsellors, and viewers, who are treated like counsellors) needs a second factor;
 * students do not, and superusers never sign in to the app.
 */
export function needsSecondFactor(role: Role): boolean {
  return role !== 'student' && role !== 'superuser';
}

/**
 * The sign-ins that proved one factor: a password, or the institution's provider when it did not
 * assert (or the institution does not count) a multi-factor sign-in of its own.
 */
const SINGLE_FACTOR: ReadonlySet<SignInMethod> = new Set(['password', 'sso']);

export function isSingleFactor(method: SignInMethod): boolean {
  return SINGLE_FACTOR.has(method);
}

/** What a single-factor sign-in becomes once the second factor is proven. */
export function withSecondFactor(method: SignInMethod): SignInMethod {
  return method === 'sso' ? 'sso_and_second_factor' : 'password_and_second_factor';
}

/**
 * What a signed-in user must still do before the app serves them: set up a second factor
 * ('enrol'), prove the one they have ('verify'), or nothing (null). The one home of the rule:
 * every guard below goes through it.
 */
export function secondFactorStep(user: SessionUser): SecondFactorStep | null {
  if (!needsSecondFactor(user.role) || !isSingleFactor(user.signInMethod)) return null;
  return user.hasSecondFactor ? 'verify' : 'enrol';
}

export const SECOND_FACTOR_REQUIRED_MESSAGE = {
  enrol: 'Staff accounts need a second factor. Set one up to continue.',
  verify: 'Confirm your sign-in with your second factor to continue.',
} as const satisfies Record<SecondFactorStep, string>;

/**
 * The signed-in user, or a 401, whether or not their sign-in is complete: only for the calls
 * that complete it (the second factor) and for saying who is signed in.
 */
export function requireSession(request: FastifyRequest): SessionUser {
  const user = request.session?.user;
  if (!user) throw new AppError('UNAUTHENTICATED', 'Authentication required');
  return user;
}

/**
 * The logged-in user, or a 401; a 403 (`SECOND_FACTOR_REQUIRED`) for staff who signed in with a
 * password alone. Every endpoint behind a sign-in goes through here, staff guards included.
 */
export function requireUser(request: FastifyRequest): SessionUser {
  const user = requireSession(request);
  const step = secondFactorStep(user);
  if (step)
    throw new AppError('SECOND_FACTOR_REQUIRED', SECOND_FACTOR_REQUIRED_MESSAGE[step], {
      second_factor: step,
    });
  return user;
}

export type StaffUser<R extends StaffRole = StaffRole> = SessionUser & { role: R; institutionId: number };

/**
 * A staff member of an institution whose role has `ability` in the ability table
 * (common/roles.ts), or 401/403. Every staff query is then scoped to `institutionId`. The one
 * gate every staff endpoint goes through: no guard names a role.
 */
export function requireStaff(request: FastifyRequest, ability: Ability): StaffUser {
  const user = requireUser(request);
  const roles: readonly string[] = storedRolesWith(ability);
  if (!roles.includes(user.role) || user.institutionId === null)
    throw new AppError('FORBIDDEN', accessRequiredMessage(ability));
  return user as StaffUser;
}
