/**
 * CSV as spreadsheets read it (RFC 4180, CRLF line ends), with formula injection neutralised:
 * a cell that starts with = + - @ tab or carriage return would be run as a formula by Excel,
 * LibreOffice or Sheets, so it gets a leading apostrophe, which they show as text (OWASP).
 *
 * A spreadsheet opened with another separator (`;` in much of Europe, tab, `|`) or a cell split
 * into lines splits our cell too: `Ann;=HYPERLINK(...)` becomes a second cell that starts with
 * `=`. So a trigger after any such separator (and optional spaces) gets its apostrophe as well.
 */

const FORMULA_TRIGGER = /^[=+\-@\t\r]/;
const TRIGGER_AFTER_SEPARATOR = /([,;\t|\r\n] *)([=+\-@])/g;
const NEEDS_QUOTES = /[",\r\n]/;

export function csvCell(value: string | number | null | undefined): string {
  const text = value === null || value === undefined ? '' : String(value);
  const inner = text.replace(TRIGGER_AFTER_SEPARATOR, "$1'$2");
  const inert = FORMULA_TRIGGER.test(inner) ? `'${inner}` : inner;
  return NEEDS_QUOTES.test(inert) ? `"${inert.replaceAll('"', '""')}"` : inert;
}

export function csvRow(cells: readonly (string | number | null | undefined)[]): string {
  return `${cells.map(csvCell).join(',')}\r\n`;
}

/** Lets Excel recognise UTF-8, so accented names survive opening the file. */
export const UTF8_BOM = '\uFEFF';
