/** Spec section 4: `/login/?next={current path}`; slashes stay readable, everything else is encoded. */
export function loginPathFor(currentPath: string): string {
  return `/login/?next=${encodeURIComponent(currentPath).replace(/%2F/g, '/')}`;
}

/** Where a staff member signed in with a password alone completes the sign-in (design section 11). */
export function secondFactorPathFor(nextPath: string): string {
  return `/sign-in/second-factor/?next=${encodeURIComponent(nextPath).replace(/%2F/g, '/')}`;
}
