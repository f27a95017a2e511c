/**
 * A person's name as one addresses them. Registrars and directories often store names as
 * "Last, First" ("Nguyen, Linh"); mail and screens say them first-name first ("Linh Nguyen").
 * A name without exactly one comma is left as it was given.
 */
export function nameFirstNameFirst(stored: string): string {
  const parts = stored.split(',');
  if (parts.length !== 2) return stored.trim();
  const [last, first] = parts.map((part) => part.trim());
  if (!last || !first) return stored.trim();
  return `${first} ${last}`;
}
