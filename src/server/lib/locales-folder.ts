import fs from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * The server's catalogues: src/server/locales beside the sources, dist/server/locales beside the
 * compiled server (scripts/build.mjs copies them there; the bundle's modules sit in dist/server).
 */
export function localesFolder(): string {
  const candidates = [new URL('../locales/', import.meta.url), new URL('./locales/', import.meta.url)];
  const found = candidates.find((url) => fs.existsSync(url));
  if (!found) throw new Error('The server has no locales folder');
  return fileURLToPath(found);
}
