/**
 * The `next` query parameter of the login page, accepted only when it points into this site.
 * Anything else (other origins, protocol-relative `//host`, `/\host` which browsers treat the
 * same way, control characters that browsers strip, javascript: URLs) is refused, so the
 * login page can never be used to send someone to a look-alike site.
 */
export function safeNextPath(raw: string | null | undefined): string | null {
  if (!raw?.startsWith('/')) return null;
  if (raw.startsWith('//') || raw.startsWith('/\\')) return null;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what we refuse.
  if (/[\u0000-\u001f\u007f\\]/.test(raw)) return null;
  try {
    const base = window.location.origin;
    const url = new URL(raw, base);
    if (url.origin !== base) return null;
    return `${url.pathname}${url.search}${url.hash}`;
  } catch {
    return null;
  }
}
