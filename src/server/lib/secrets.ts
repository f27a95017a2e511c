import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { makePrivateDir, makePrivateIfPresent } from './private-files';

/**
 * The server secret (signs CSRF tokens and cookies). When none is configured, one is generated
 * on first start and kept beside the database with owner-only permissions, so sessions and
 * tokens survive restarts. It is never logged.
 */
export function resolveSecret(configured: string | null, dataDir: string): string {
  if (configured) return configured;
  const file = path.join(dataDir, 'secret.key');
  try {
    makePrivateIfPresent(file);
    return usable(fs.readFileSync(file, 'utf8'), file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  makePrivateDir(dataDir);
  const secret = crypto.randomBytes(48).toString('base64url');
  // 'wx' fails if another instance won the race; then its secret is the one to use.
  try {
    fs.writeFileSync(file, secret, { mode: 0o600, flag: 'wx' });
    return secret;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST')
      return usable(fs.readFileSync(file, 'utf8'), file);
    throw error;
  }
}

/** An empty or short file (a crash during the first start, a hand edit) must not become a weak key. */
function usable(content: string, file: string): string {
  const secret = content.trim();
  if (secret.length >= 32) return secret;
  throw new Error(
    `${file} does not hold a usable secret (${secret.length} characters, at least 32 needed). ` +
      'Delete it to have a new one generated (everyone will need to log in again), or set SESSION_SECRET.',
  );
}
