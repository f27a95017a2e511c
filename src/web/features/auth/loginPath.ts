/** Spec section 4: `/login/?next={current path}`; slashes stay readable, everything else is encoded. */
export function loginPathFor(currentPath: string): string {
  return `/login/?next=${encodeURIComponent(currentPath).replace(/%2F/g, '/')}`;
}
