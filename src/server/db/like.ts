/**
 * `text` matched literally anywhere inside a lower-cased column by `like ... escape '\'`: its own
 * `%` and `_` are not wildcards.
 */
export function containsPattern(text: string): string {
  return `%${text.toLowerCase().replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
}
