import type { FastifyRequest } from 'fastify';
import { AppError } from './errors';
import type { SessionUser } from './sessions';

/** The logged-in user, or a 401. */
export function requireUser(request: FastifyRequest): SessionUser {
  const user = request.session?.user;
  if (!user) throw new AppError('UNAUTHENTICATED', 'Authentication required');
  return user;
}

export type AdminUser = SessionUser & { role: 'institution_admin'; institutionId: number };

/** An institution admin, or 401/403. Every admin query is then scoped to `institutionId`. */
export function requireAdmin(request: FastifyRequest): AdminUser {
  const user = requireUser(request);
  if (user.role !== 'institution_admin' || user.institutionId === null) {
    throw new AppError('FORBIDDEN', 'Admin access required');
  }
  return user as AdminUser;
}
