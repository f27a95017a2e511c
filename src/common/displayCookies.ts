import { ROLES, type RoleName } from './roles';

/**
 * The script-readable cookies the server sets at sign-in for the header's display state only
 * (design section 4): the spec's four, and the role as the API names it, so the header of a
 * counsellor or a viewer is right before `/api/user/` answers. Authorization never reads them.
 */
export const DISPLAY_COOKIES = [
  'auth_token',
  'user_email',
  'is_superuser',
  'is_institution_admin',
  'user_role',
] as const;

/** A `user_role` value, or null for anything else (a cookie from an older version, or edited). */
export function displayedRole(value: string | null | undefined): RoleName | null {
  return (ROLES as readonly string[]).includes(value ?? '') ? (value as RoleName) : null;
}
