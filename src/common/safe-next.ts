/**
 * The `next` path given to the login page or to a sign-in through the institution, accepted only
 * when it points into this site (`origin`). Anything else (other origins, protocol-relative
 * `//host`, `/\host` which browsers treat the same way, control characters that browsers strip,
 * javascript: URLs) is refused, so a sign-in can never be used to send someone to a look-alike
 * site.
 *
 * The check is made on the path as the URL parser normalises it, because that normalised path is
 * what the app navigates to: `/.//evil.example/`, `/%2e//evil.example/` and `/survey/..//evil/`
 * all start with one slash but normalise to `//evil.example/`, another origin.
 */
export function safeNextPath(raw: string | null | undefined, origin: string): string | null {
  if (!raw?.startsWith('/')) return null;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what we refuse.
  if (/[\u0000-\u001f\u007f\\]/.test(raw)) return null;
  try {
    const url = new URL(raw, origin);
    if (url.origin !== origin) return null;
    const path = `${url.pathname}${url.search}${url.hash}`;
    // Followed again, the normalised path must still stay here (it must not read as `//host`).
    if (path.startsWith('//') || new URL(path, origin).origin !== origin) return null;
    return path;
  } catch {
    return null;
  }
}
