/** The part of an address after the last "@", which decides the institution it belongs to. */
export function emailDomain(email: string): string {
  return email.slice(email.lastIndexOf('@') + 1);
}

/**
 * The rule that a student's address must be in the institution's email domains, in its one
 * wording: null when the address may be used, else what to do instead. Registration, answers
 * sent without signing in, address codes and roster rows all ask this, so they cannot disagree.
 * `institution` null: no institution has the address's domain and none was named (a code asked
 * for from the login page), so the wording can name neither.
 */
export function institutionEmailProblem(email: string, institution: null): string;
export function institutionEmailProblem(
  email: string,
  institution: { name: string; domains: readonly string[] } | null,
): string | null;
export function institutionEmailProblem(
  email: string,
  institution: { name: string; domains: readonly string[] } | null,
): string | null {
  if (institution?.domains.includes(emailDomain(email))) return null;
  if (!institution) return "Use your institution's email address";
  const expected = institution.domains.map((domain) => `@${domain}`).join(' or ');
  return `Use your ${institution.name} email address (${expected})`;
}
