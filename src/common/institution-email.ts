/** The part of an address after the last "@", which decides the institution it belongs to. */
export function emailDomain(email: string): string {
  return email.slice(email.lastIndexOf('@') + 1);
}

/**
 * Why an address cannot be used at an institution with these domains, or null when it can.
 * Registration and an anonymous survey answer both ask this, so they cannot disagree.
 */
export function institutionEmailProblem(
  email: string,
  institution: { name: string; domains: readonly string[] },
): string | null {
  if (institution.domains.includes(emailDomain(email))) return null;
  const expected = institution.domains.map((domain) => `@${domain}`).join(' or ');
  return `Use your ${institution.name} email address (${expected})`;
}
