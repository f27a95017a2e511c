import { parse } from 'csv-parse/sync';

/** Reads an export for assertions (RFC 4180: quoted cells, doubled quotes, CRLF rows). */
export function parseCsv(text: string): string[][] {
  return parse(text, { bom: true, relax_column_count: true }) as string[][];
}
