/**
 * The client-generated id of one submission (design section 5): a double click or a retried
 * request carries the same id, and the server stores the submission once.
 */
export function newSubmissionId(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  // randomUUID exists only in secure contexts; a deployment on plain HTTP still needs an id.
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}
