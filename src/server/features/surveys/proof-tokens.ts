import crypto from 'node:crypto';

/**
 * Which unproven submissions a proof promotes. The visitor id alone cannot say: it is a cookie,
 * and someone who planted his visitor id in a student's browser (a shared computer, a cookie set
 * from a sibling site) shares it with her, so answers he sent in her name before her proof would
 * count as hers. Each unproven submission therefore answers with a secret of its own that only
 * the sending tab holds (the web app keeps it in sessionStorage, which no cookie can plant, and
 * sends it with the code). A proof promotes only the submissions whose secrets it presents, and
 * that were sent under the proving browser's visitor id in the proven address's name. Only the
 * secret's hash is stored.
 */
export function newProofToken(): { token: string; hash: string } {
  const token = crypto.randomBytes(32).toString('base64url');
  return { token, hash: hashProofToken(token) };
}

export function hashProofToken(token: string): string {
  return crypto.createHash('sha256').update(`proof-token:${token}`).digest('hex');
}
