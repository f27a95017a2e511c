import { safeNextPath as safeNextPathAt } from '../../../common/safe-next';

/** The `next` parameter when it stays on this site (the rule: common/safe-next.ts), else null. */
export function safeNextPath(
  raw: string | null | undefined,
  origin: string = window.location.origin,
): string | null {
  return safeNextPathAt(raw, origin);
}
