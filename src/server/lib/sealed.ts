import crypto from 'node:crypto';

/**
 * Secrets the server must read back (authenticator-app secrets), stored sealed: AES-256-GCM with
 * a key derived from the server secret, so a copy of the database alone does not give them away,
 * and a sealed value altered in the database fails to open instead of being used.
 */

const VERSION = 'v1';

/** The sealing key for one purpose, derived from the server secret (HKDF-SHA256). */
export function sealingKey(serverSecret: string, purpose: string): Buffer {
  return Buffer.from(crypto.hkdfSync('sha256', serverSecret, 'wellspring sealed secrets', purpose, 32));
}

export function seal(key: Buffer, plain: string): string {
  const iv = crypto.randomBytes(12);
  const cipher = crypto.createCipheriv('aes-256-gcm', key, iv);
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  const tag = cipher.getAuthTag();
  return [VERSION, iv, tag, body]
    .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
    .join('.');
}

/** The sealed value, or null when it was not sealed with this key or was altered. */
export function unseal(key: Buffer, sealed: string): string | null {
  const [version, iv, tag, body] = sealed.split('.');
  if (version !== VERSION || !iv || !tag || body === undefined) return null;
  try {
    const decipher = crypto.createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString(
      'utf8',
    );
  } catch {
    return null;
  }
}
