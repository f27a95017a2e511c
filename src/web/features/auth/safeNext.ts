import { safeNextPath as safeNextPathAt } from '../../../common/safe-next';

/**
 * The server renders the login screen without a window: paths are judged against a stand-in
 * origin, which accepts the same paths (a full address of this site is judged in the browser).
 */
const SERVER_RENDER_ORIGIN = 'http://localhost';

/** The `next` parameter when it stays on this site (the rule: common/safe-next.ts), else null. */
export function safeNextPath(
  raw: string | null | undefined,
  origin: string = typeof window === 'undefined' ? SERVER_RENDER_ORIGIN : window.location.origin,
): string | null {
  return safeNextPathAt(raw, origin);
}
